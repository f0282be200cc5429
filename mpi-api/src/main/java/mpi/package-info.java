/**
 * The Open MPI Java bindings API (Open MPI 4.1's package {@code mpi}), implemented by Weft over its abstract
 * device. A thin facade: each method checks its arguments through {@code org.weft.core} and applies the
 * communicator's error handler.
 */
package mpi;
