package org.weft.tests.programs;

import java.nio.ByteBuffer;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Bcast, gather, scatter, allgather and alltoall with blocks around a shared slot (64 KiB) and well beyond it, into
 * direct buffers (large data read once out of the sender's memory) and {@code byte[]} (through the ring), every byte
 * checked, to every root; then counts that differ between ranks across the slot's size — short blocks, which a
 * block takes as a receive does, and a block longer than its receiver's ({@code ERR_TRUNCATE} at that receiver
 * only) — which must neither hang nor corrupt; the blocking forms, then the nonblocking ones (direct buffers).
 * First, blocks over a slot from direct buffers: bcast, gather, scatter, allgather and alltoall copy them straight
 * between the members' buffers and send no message — {@code MPI.newByteBuffer}'s in the ranks' shared heaps, {@code allocateDirect}'s
 * through the kernel — also into {@code byte[]} receivers. Then reductions over a slot
 * ({@link LargeReductions}).
 * Prints {@code LARGE-BLOCKS OK rank R}.
 */
public final class LargeBlockCollectives {
    private static final int SLOT = 64 << 10;
    private static final int[] BLOCKS = {SLOT - 1, SLOT, SLOT + 1, 300_000, (1 << 20) + 3};
    private static int rank;
    /** Whether the calls are the nonblocking forms (started and waited for at once), on direct buffers only. */
    private static boolean nonblocking;
    /** Whether this rank receives into {@code byte[]} where the others' buffers are direct. */
    private static boolean receivesOnHeap;
    /**
     * Whether this rank's direct buffers are {@code ByteBuffer.allocateDirect}'s (private memory, copied through the
     * kernel) rather than {@code MPI.newByteBuffer}'s (in the rank's shared heap, copied with loads and stores).
     */
    private static boolean privateDirect;

    private LargeBlockCollectives() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        run(args);
        MPI.Finalize();
    }

    /** The program without {@code Init} and {@code Finalize} ({@link InOneJob}). */
    public static void run(String[] args) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        rank = world.getRank();
        int n = world.getSize();
        peerCopiesSendNothing(world);
        for (boolean nonblockingForms : new boolean[] {false, true}) { // the blocking ones made the segment
            nonblocking = nonblockingForms;
            for (int block : BLOCKS) {
                int b = n > 4 && block > SLOT + 1 ? block / 4 : block; // 8 ranks: 8 x 8 blocks of MiBs otherwise
                for (boolean direct : nonblocking ? new boolean[] {true} : new boolean[] {true, false}) {
                    for (int root = 0; root < n; root += Math.max(1, n - 1)) {
                        bcast(world, b, root, direct);
                        gather(world, b, b, root, direct);
                        scatter(world, b, b, root, direct);
                    }
                    allGather(world, b, direct);
                    allToAll(world, b, direct);
                }
            }
            mismatchedCounts(world);
        }
        long start = System.nanoTime();
        LargeReductions.check(world);
        System.out.printf("LARGE-REDUCTIONS rank %d took %d ms%n", rank, (System.nanoTime() - start) / 1_000_000);
        world.barrier();
        System.out.println("LARGE-BLOCKS OK rank " + world.getRank());
    }

    /**
     * Blocks over a slot whose owners' buffers are direct (a bcast's and scatter's root, a gather's leaves, every
     * rank of an allgather or alltoall) go by peer copies: every byte arrives and no message goes, into direct receive buffers and, at odd ranks, into
     * {@code byte[]} (copied through native memory), or with all buffers of odd ranks {@code allocateDirect}'s (not
     * in a shared heap: copied through the kernel both ways).
     */
    private static void peerCopiesSendNothing(Intracomm world) throws MPIException {
        int n = world.getSize();
        world.barrier(); // makes the segment, with messages
        long before = SharedCollectivesCheck.sent();
        for (int block : new int[] {SLOT + 1, 300_000}) {
            int b = n > 4 ? block / 4 : block;
            for (int root = 0; root < n; root += Math.max(1, n - 1)) {
                for (int oddRanks = 0; oddRanks < 3; oddRanks++) { // direct as the others, byte[], private
                    receivesOnHeap = oddRanks == 1 && rank % 2 == 1;
                    privateDirect = oddRanks == 2 && rank % 2 == 1;
                    bcast(world, b, root, true);
                    gather(world, b, b, root, true);
                    scatter(world, b, b, root, true);
                    allGather(world, b, true);
                    allToAll(world, b, true);
                }
            }
        }
        receivesOnHeap = false;
        privateDirect = false;
        long messages = SharedCollectivesCheck.sent() - before;
        if (messages != 0) {
            throw new AssertionError("rank " + rank + " sent " + messages + " messages for bcasts, gathers,"
                    + " scatters, allgathers and alltoalls over a slot from direct buffers: they should copy between"
                    + " the buffers");
        }
    }

    /** Counts straddling the slot, in both directions, for each rooted collective and allgather. */
    private static void mismatchedCounts(Intracomm world) throws MPIException {
        int small = SLOT - 4096;
        int large = SLOT + 4096;
        for (boolean direct : nonblocking ? new boolean[] {true} : new boolean[] {true, false}) {
            gather(world, small, large, 0, direct); // short blocks into large ones
            scatter(world, small, large, 0, direct);
            shortBcast(world, small, large, direct);
            expectTruncated(world.getRank() == 0, () -> gather(world, large, small, 0, direct));
            expectTruncated(true, () -> scatter(world, large, small, 0, direct)); // the root's own block too
        }
    }

    private interface Call {
        void run() throws MPIException;
    }

    /** Runs {@code call}: those that {@code truncates} must see {@code ERR_TRUNCATE}, the others nothing. */
    private static void expectTruncated(boolean truncates, Call call) throws MPIException {
        try {
            call.run();
        } catch (MPIException e) {
            if (truncates && e.getErrorClass() == MPI.ERR_TRUNCATE) {
                return;
            }
            throw e;
        }
        if (truncates) {
            throw new IllegalStateException("rank " + rank + ": a block longer than its receive block was not"
                    + " ERR_TRUNCATE");
        }
    }

    private static void bcast(Intracomm comm, int bytes, int root, boolean direct) throws MPIException {
        Object buf = buffer(bytes, direct && (comm.getRank() == root || !receivesOnHeap));
        if (comm.getRank() == root) {
            fill(buf, 0, bytes, root);
        }
        if (nonblocking) {
            comm.iBcast((ByteBuffer) buf, bytes, MPI.BYTE, root).waitFor();
        } else {
            comm.bcast(buf, bytes, MPI.BYTE, root);
        }
        check(buf, 0, bytes, root, "bcast of " + bytes + " from " + root);
    }

    /** The root sends {@code sent} bytes into receive buffers of {@code room}: the rest stays as it was. */
    private static void shortBcast(Intracomm comm, int sent, int room, boolean direct) throws MPIException {
        boolean isRoot = comm.getRank() == 0;
        Object buf = buffer(room, direct);
        fill(buf, 0, room, 99);
        if (isRoot) {
            fill(buf, 0, sent, 5);
        }
        if (nonblocking) {
            comm.iBcast((ByteBuffer) buf, isRoot ? sent : room, MPI.BYTE, 0).waitFor();
        } else {
            comm.bcast(buf, isRoot ? sent : room, MPI.BYTE, 0);
        }
        check(buf, 0, sent, 5, "short bcast of " + sent + " into " + room);
        check(buf, sent, room - sent, 99, "the rest of a short bcast's buffer", sent);
    }

    private static void gather(Intracomm comm, int sent, int room, int root, boolean direct) throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        Object send = buffer(sent, direct);
        fill(send, 0, sent, 10 + me);
        Object recv = buffer(me == root ? n * room : 1, direct && !receivesOnHeap);
        if (nonblocking) {
            comm.iGather((ByteBuffer) send, sent, MPI.BYTE, (ByteBuffer) recv, room, MPI.BYTE, root).waitFor();
        } else {
            comm.gather(send, sent, MPI.BYTE, recv, room, MPI.BYTE, root);
        }
        if (me == root) {
            for (int r = 0; r < n; r++) {
                check(recv, r * room, Math.min(sent, room), 10 + r, "gather of " + sent + " into " + room + " from "
                        + r + " at " + root);
            }
        }
    }

    private static void scatter(Intracomm comm, int sent, int room, int root, boolean direct) throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        Object send = buffer(me == root ? n * sent : 1, direct);
        if (me == root) {
            for (int r = 0; r < n; r++) {
                fill(send, r * sent, sent, 20 + r);
            }
        }
        Object recv = buffer(room, direct && !receivesOnHeap);
        if (nonblocking) {
            comm.iScatter((ByteBuffer) send, sent, MPI.BYTE, (ByteBuffer) recv, room, MPI.BYTE, root).waitFor();
        } else {
            comm.scatter(send, sent, MPI.BYTE, recv, room, MPI.BYTE, root);
        }
        check(recv, 0, Math.min(sent, room), 20 + me, "scatter of " + sent + " into " + room + " from " + root);
    }

    private static void allGather(Intracomm comm, int bytes, boolean direct) throws MPIException {
        int n = comm.getSize();
        Object send = buffer(bytes, direct);
        fill(send, 0, bytes, 30 + comm.getRank());
        Object recv = buffer(n * bytes, direct && !receivesOnHeap);
        if (nonblocking) {
            comm.iAllGather((ByteBuffer) send, bytes, MPI.BYTE, (ByteBuffer) recv, bytes, MPI.BYTE).waitFor();
        } else {
            comm.allGather(send, bytes, MPI.BYTE, recv, bytes, MPI.BYTE);
        }
        for (int r = 0; r < n; r++) {
            check(recv, r * bytes, bytes, 30 + r, "allgather of " + bytes + " from " + r);
        }
    }

    private static void allToAll(Intracomm comm, int bytes, boolean direct) throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        Object send = buffer(n * bytes, direct);
        for (int r = 0; r < n; r++) {
            fill(send, r * bytes, bytes, 40 + me * n + r);
        }
        Object recv = buffer(n * bytes, direct && !receivesOnHeap);
        if (nonblocking) {
            comm.iAllToAll((ByteBuffer) send, bytes, MPI.BYTE, (ByteBuffer) recv, bytes, MPI.BYTE).waitFor();
        } else {
            comm.allToAll(send, bytes, MPI.BYTE, recv, bytes, MPI.BYTE);
        }
        for (int r = 0; r < n; r++) {
            check(recv, r * bytes, bytes, 40 + r * n + me, "alltoall of " + bytes + " from " + r);
        }
    }

    private static Object buffer(int bytes, boolean direct) {
        if (direct && privateDirect) {
            return ByteBuffer.allocateDirect(bytes);
        }
        return direct ? MPI.newByteBuffer(bytes) : new byte[bytes];
    }

    private static void fill(Object buf, int at, int bytes, int seed) {
        for (int i = 0; i < bytes; i++) {
            put(buf, at + i, pattern(i, seed));
        }
    }

    private static void check(Object buf, int at, int bytes, int seed, String what) {
        check(buf, at, bytes, seed, what, 0);
    }

    /** Bytes {@code at..at+bytes} hold the pattern of {@code seed} from position {@code first}. */
    private static void check(Object buf, int at, int bytes, int seed, String what, int first) {
        for (int i = 0; i < bytes; i++) {
            byte got = get(buf, at + i);
            if (got != pattern(first + i, seed)) {
                throw new IllegalStateException("rank " + rank + ": " + what + ": byte " + i
                        + " is " + got + ", expected " + pattern(first + i, seed));
            }
        }
    }

    private static void put(Object buf, int i, byte value) {
        if (buf instanceof ByteBuffer b) {
            b.put(i, value);
        } else {
            ((byte[]) buf)[i] = value;
        }
    }

    private static byte get(Object buf, int i) {
        return buf instanceof ByteBuffer b ? b.get(i) : ((byte[]) buf)[i];
    }

    /** Varies with the position past every power of two, so a misplaced block shows. */
    private static byte pattern(int i, int seed) {
        return (byte) (i * 31 + (i >>> 8) * 7 + (i >>> 16) + seed * 13);
    }
}
