package mpi;

/** Intercomm of the Open MPI Java bindings; not implemented in Weft yet: every operation raises {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
public final class Intercomm extends Comm {
    Intercomm(org.weft.core.comm.Communicator communicator) {
        super(communicator);
    }

    /** {@code MPI_Comm_dup}, errors unchecked. */
    @Override
    public Intercomm clone() {
        return (Intercomm) super.clone();
    }

    /** {@code MPI_Comm_dup} (not implemented in Weft yet). */
    @Override
    public Intercomm dup() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_dup");
    }

    /** {@code MPI_Comm_idup} (not implemented in Weft yet). */
    @Override
    public Intercomm iDup() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_idup");
    }

    /** {@code MPI_Comm_dup_with_info} (not implemented in Weft yet). */
    @Override
    public Intercomm dupWithInfo(Info info) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_dup_with_info");
    }

    /** {@code MPI_Comm_remote_size} (not implemented in Weft yet). */
    public int getRemoteSize() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_remote_size");
    }

    /** {@code MPI_Comm_remote_group} (not implemented in Weft yet). */
    public Group getRemoteGroup() throws MPIException {
        throw Errors.unsupported(core(), "MPI_Comm_remote_group");
    }

    /** {@code MPI_Intercomm_merge} (not implemented in Weft yet). */
    public Intracomm merge(boolean flag) throws MPIException {
        throw Errors.unsupported(core(), "MPI_Intercomm_merge");
    }

    /** {@code MPI_Comm_get_parent} (not implemented in Weft yet). */
    public static Intercomm getParent() throws MPIException {
        throw Errors.unsupported("MPI_Comm_get_parent");
    }
}
