package mpi;

/** Holder of constant values in Open MPI's bindings; Weft defines its constants directly in {@link MPI}. */
class Constant {
}
