package mpi;

import org.weft.adi.DeviceException;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.Intercomms;
import org.weft.core.comm.ProcessGroup;

/**
 * An intercommunicator ({@code MPI_Intercomm_create}): point-to-point ranks name members of the remote group.
 * Made and merged by {@code org.weft.core.comm.Intercomms}.
 */
public final class Intercomm extends Comm {
    Intercomm(Communicator communicator) {
        super(communicator);
    }

    /** {@code MPI_Comm_dup}, errors unchecked. */
    @Override
    public Intercomm clone() {
        return (Intercomm) super.clone();
    }

    /** {@code MPI_Comm_dup}: both groups call it. */
    @Override
    public Intercomm dup() throws MPIException {
        return (Intercomm) super.dup();
    }

    /** {@code MPI_Comm_idup}: completes at once. */
    @Override
    public Intercomm iDup() throws MPIException {
        return (Intercomm) super.iDup();
    }

    /** {@code MPI_Comm_dup_with_info}. */
    @Override
    public Intercomm dupWithInfo(Info info) throws MPIException {
        return (Intercomm) super.dupWithInfo(info);
    }

    /** {@code MPI_Comm_remote_size}. */
    public int getRemoteSize() throws MPIException {
        return core().remoteGroup().size();
    }

    /** {@code MPI_Comm_remote_group}. */
    public Group getRemoteGroup() throws MPIException {
        Communicator c = core();
        return new Group(c.remoteGroup(), c.device().rank());
    }

    /**
     * {@code MPI_Intercomm_merge}: an intracommunicator of both groups; the group passing {@code high = false}
     * comes first (when both pass the same, the group with the lower leader world rank).
     */
    public Intracomm merge(boolean high) throws MPIException {
        Communicator c = core();
        try {
            return (Intracomm) wrap(Intercomms.merge(c, high));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Intercomm_merge", e);
        }
    }

    /**
     * {@code MPI_Comm_split} of an intercommunicator (a Weft extension: Open MPI's Java bindings offer split on
     * intracommunicators only): the processes of both groups with one colour form a new intercommunicator; a null
     * intercommunicator ({@code isNull()}) for {@code MPI.UNDEFINED} or a colour the other group did not choose.
     */
    public Intercomm split(int colour, int key) throws MPIException {
        return intercommOrNull(created("MPI_Comm_split", c -> Intercomms.split(c, colour, key)));
    }

    /**
     * {@code MPI_Comm_create} of an intercommunicator (a Weft extension, as {@link #split}): each group passes a
     * subgroup of its own; a null intercommunicator outside it or when either subgroup is empty.
     */
    public Intercomm create(Group group) throws MPIException {
        ProcessGroup members = group.core("MPI_Comm_create");
        return intercommOrNull(created("MPI_Comm_create", c -> Intercomms.create(c, members)));
    }

    private static Intercomm intercommOrNull(Comm created) {
        return created.isNull() ? new Intercomm(null) : (Intercomm) created;
    }

    /**
     * {@code MPI_Comm_get_parent}: the intercommunicator to the processes that spawned this one's world, made in
     * {@code MPI.Init}; a null intercommunicator ({@code isNull()}) when nobody did, or once it is freed.
     */
    public static Intercomm getParent() throws MPIException {
        org.weft.core.MpiRuntime runtime = org.weft.core.RuntimeBinding.slot().activeRuntime();
        Communicator parent = runtime == null ? null : runtime.parent();
        return new Intercomm(parent);
    }
}
