package mpi;

/** GraphComm of the Open MPI Java bindings; not implemented in Weft yet: every operation raises {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
public final class GraphComm extends Intracomm {
    GraphComm(org.weft.core.comm.Communicator communicator) {
        super(communicator);
    }

    /** {@code MPI_Comm_dup}, errors unchecked. */
    @Override
    public GraphComm clone() {
        return (GraphComm) super.clone();
    }

    /** {@code MPI_Comm_dup} (not implemented in Weft yet). */
    @Override
    public GraphComm dup() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_dup");
    }

    /** {@code MPI_Comm_idup} (not implemented in Weft yet). */
    @Override
    public GraphComm iDup() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_idup");
    }

    /** {@code MPI_Comm_dup_with_info} (not implemented in Weft yet). */
    @Override
    public GraphComm dupWithInfo(Info info) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_dup_with_info");
    }

    /** {@code MPI_Graphdims_get} (not implemented in Weft yet). */
    public GraphParms getDims() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Graphdims_get");
    }

    /** {@code MPI_Graph_neighbors} (not implemented in Weft yet). */
    public int[] getNeighbors(int value) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Graph_neighbors");
    }

    /** {@code MPI_Dist_graph_neighbors} (not implemented in Weft yet). */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Dist_graph_neighbors");
    }

    /** {@code MPI_Graph_map} (not implemented in Weft yet). */
    public int map(int[] counts, int[] displs) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Graph_map");
    }
}
