package org.weft.mm.module.nativempi;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.adi.NativeCollectives;
import org.weft.adi.SharedMemory;
import org.weft.mm.spi.Descriptor;

/**
 * The collectives of this process's native job ({@link NativeCollectives}): a peer is reached when its
 * {@code nativempi} descriptor names this job's session; a group is made by {@code MPI_Comm_create_group} on a
 * duplicate of {@code MPI_COMM_WORLD} kept for that (collective over the group's members only, unlike
 * {@code MPI_Comm_split}, which every process of the job would have to call), with the members' native ranks in the
 * Weft communicator's order.
 */
final class JobCollectives implements NativeCollectives {
    /** Room for an arrival board's file name, padded with blanks. */
    private static final int NAME_BYTES = 64;
    /** Boards this process made: with its world rank, a name unique in the job. */
    private static final AtomicInteger MADE = new AtomicInteger();

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
    /** What the device offers for the groups' arrival boards: memory, a host test and its own idleness. */
    private final Boards boards;

    /**
     * What the device gives the groups' arrival boards ({@link ArrivalBoard}): {@code memory} to share with ranks of
     * this host ({@code null}: none, every group's calls stay nonblocking), whether a world rank runs on this host,
     * and whether nothing the device started needs this process's progress now.
     */
    record Boards(SharedMemory memory, IntPredicate onThisHost, BooleanSupplier deviceIdle) {
    }

    JobCollectives(LibMpi mpi, long parent, String sessionId, int nativeRank, int myWorldRank,
                   IntFunction<Descriptor> descriptors, NativeCollectiveCounts counts, BooleanSupplier libraryOpen,
                   Consumer<BooleanSupplier> await, Boards boards) {
        this.boards = boards;
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
    public Group create(int[] worldRanks, int key, BooleanSupplier idle) {
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
        ArrivalBoard board = board(worldRanks, comm);
        BooleanSupplier deviceIdle = boards.deviceIdle();
        return new NativeGroup(mpi, comm, worldRanks.length, counts, libraryOpen, await, board,
                () -> idle.getAsBoolean() && deviceIdle.getAsBoolean());
    }

    /**
     * The arrival board of the new native communicator {@code comm} of {@code worldRanks}, or {@code null} (its
     * calls stay nonblocking) when they are not all on this host or any member could not map it. Collective over
     * the members, all of whom are in {@link #create} (so libmpi's blocking calls here wait for nobody's progress):
     * its rank 0 makes a file in the job directory and broadcasts its name, the others map it, all agree that
     * everyone did, and rank 0 removes the name (the mappings stay).
     */
    private ArrivalBoard board(int[] worldRanks, long comm) {
        SharedMemory memory = boards.memory();
        if (memory == null) {
            return null;
        }
        for (int worldRank : worldRanks) {
            if (!boards.onThisHost().test(worldRank)) {
                return null; // every member sees the same hosts: all decide alike
            }
        }
        int me = indexOf(worldRanks, myWorldRank);
        String name = "native-" + myWorldRank + "-" + MADE.incrementAndGet();
        Arena arena = Arena.ofShared();
        long bytes = ArrivalBoard.bytes(worldRanks.length);
        MemorySegment lines = me == 0 ? map(memory, name, bytes, arena, true) : null;
        byte[] named = new byte[NAME_BYTES];
        byte[] mine = (lines == null ? "" : name).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(mine, 0, named, 0, Math.min(mine.length, NAME_BYTES));
        String made = new String(mpi.broadcast(named, 0, comm), StandardCharsets.US_ASCII).trim();
        if (me != 0 && !made.isEmpty()) {
            lines = map(memory, made, bytes, arena, false);
        }
        boolean everyone = mpi.leastOf(lines == null ? 0 : 1, comm) == 1;
        if (me == 0 && lines != null) {
            memory.remove(name);
        }
        if (!everyone) {
            arena.close();
            return null;
        }
        return new ArrivalBoard(lines, arena, worldRanks.length, me);
    }

    private static MemorySegment map(SharedMemory memory, String name, long bytes, Arena arena, boolean create) {
        try {
            return create ? memory.create(name, bytes, arena) : memory.open(name, bytes, arena);
        } catch (IOException | RuntimeException e) {
            System.err.println("weft: native collectives of a communicator stay nonblocking: cannot "
                    + (create ? "create" : "map") + " its arrival board " + name + " (" + e.getMessage() + ")");
            return null;
        }
    }

    private static int indexOf(int[] ranks, int rank) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == rank) {
                return i;
            }
        }
        throw new IllegalArgumentException("world rank " + rank + " is not a member");
    }
}
