package org.weft.mm.module.nativempi;

import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.adi.NativeCollectives;
import org.weft.mm.spi.Descriptor;

/**
 * The collectives of this process's native job ({@link NativeCollectives}): a peer is reached when its
 * {@code nativempi} descriptor names this job's session; a group is made by {@code MPI_Comm_create_group} on a
 * duplicate of {@code MPI_COMM_WORLD} kept for that (collective over the group's members only, unlike
 * {@code MPI_Comm_split}, which every process of the job would have to call), with the members' native ranks in the
 * Weft communicator's order.
 */
final class JobCollectives implements NativeCollectives {
    private final LibMpi mpi;
    /** The parent of the groups: a communicator of the whole job, used for nothing else. */
    private final long parent;
    private final String sessionId;
    private final int nativeRank;
    /** The {@code nativempi} descriptor of a world rank this process knows, or {@code null}. */
    private final IntFunction<Descriptor> descriptors;
    private final NativeCollectiveCounts counts;
    private final BooleanSupplier libraryOpen;
    /** The device's wait, which runs Weft's progress until a condition holds: the groups wait for libmpi so. */
    private final Consumer<BooleanSupplier> await;
    private final int myWorldRank;

    JobCollectives(LibMpi mpi, long parent, String sessionId, int nativeRank, int myWorldRank,
                   IntFunction<Descriptor> descriptors, NativeCollectiveCounts counts, BooleanSupplier libraryOpen,
                   Consumer<BooleanSupplier> await) {
        this.mpi = mpi;
        this.parent = parent;
        this.sessionId = sessionId;
        this.nativeRank = nativeRank;
        this.myWorldRank = myWorldRank;
        this.descriptors = descriptors;
        this.counts = counts;
        this.libraryOpen = libraryOpen;
        this.await = await;
    }

    @Override
    public boolean reaches(int worldRank) {
        return nativeRankOf(worldRank) >= 0;
    }

    /** The native rank of world rank {@code worldRank} in this job, or -1 when it is not in this job. */
    private int nativeRankOf(int worldRank) {
        if (worldRank == myWorldRank) {
            return nativeRank;
        }
        Descriptor descriptor = descriptors.apply(worldRank);
        if (descriptor == null) {
            return -1;
        }
        try {
            NativeAddress address = NativeAddress.of(descriptor);
            return address.sessionId().equals(sessionId) ? address.nativeRank() : -1;
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    @Override
    public Group create(int[] worldRanks, int key) {
        int[] nativeRanks = new int[worldRanks.length];
        for (int i = 0; i < worldRanks.length; i++) {
            nativeRanks[i] = nativeRankOf(worldRanks[i]);
            if (nativeRanks[i] < 0) {
                throw new DeviceException(ErrorClass.ERR_GROUP, "world rank " + worldRanks[i]
                        + " is not in this process's native job: no native communicator can hold it");
            }
        }
        long comm;
        try {
            comm = mpi.commCreateGroup(parent, nativeRanks, key);
        } catch (MpiCallException e) {
            throw new DeviceException(ErrorClass.ERR_INTERN, "a native communicator for collectives: "
                    + e.getMessage(), e);
        }
        mpi.gate().lock();
        try {
            counts.groupMade();
        } finally {
            mpi.gate().unlock();
        }
        return new NativeGroup(mpi, comm, worldRanks.length, counts, libraryOpen, await);
    }
}
