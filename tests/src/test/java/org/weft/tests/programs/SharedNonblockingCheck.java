package org.weft.tests.programs;

import java.nio.IntBuffer;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.weft.adi.DeviceReport;
import org.weft.api.Weft;

/**
 * Checks the nonblocking barrier, reduce, allreduce and reduce_scatter_block (and the blocking reduce_scatter_block),
 * and the nonblocking bcast, gather, scatter, allgather and alltoall, against a sequential computation, on the world
 * and a split, whose shared segment exists (a blocking collective came first) or not yet (the first calls are
 * nonblocking): in place and not, every root, many outstanding at once (more than the segment's slot sets, their send
 * buffers dropped by the program and collected) and completed in reverse order, blocking collectives and a
 * communicator's creation while they are outstanding, a communicator freed while they are, and a barrier that a late
 * rank holds. Then counts the messages a
 * thousand of each sent: {@code shared} as the first argument asserts (nearly) none, that they went through shared
 * memory. Prints {@code SHARED-NONBLOCKING OK} per rank.
 */
public final class SharedNonblockingCheck {
    private static final int[] COUNTS = {1, 1000};
    /** More than the segment's slot sets, so that operations wait for their set to be free. */
    private static final int OUTSTANDING = 20;

    private SharedNonblockingCheck() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        run(args);
        MPI.Finalize();
    }

    /** The program without {@code Init} and {@code Finalize} ({@link InOneJob}). */
    public static void run(String[] args) throws Exception {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        Intracomm fresh = world.dup(); // its first calls are nonblocking: no segment yet
        checkAll(fresh, 0);
        world.barrier(); // the world's segment is made here
        Intracomm half = world.split(rank % 2, rank);
        half.barrier();
        for (Intracomm comm : new Intracomm[] {world, half, fresh}) {
            checkAll(comm, 1);
            checkManyOutstanding(comm);
            checkBarrier(comm);
            checkBlocks(comm, 2);
            checkManyBlocksOutstanding(comm);
        }
        checkOutstandingAcrossFree(world);
        countMessages(world, args.length > 0 ? args[0] : "");
        half.free();
        fresh.free();
        System.out.println("SHARED-NONBLOCKING OK rank " + rank);
    }

    private static void checkAll(Intracomm comm, int seed) throws MPIException {
        for (int count : COUNTS) {
            checkAllReduce(comm, count, seed, false);
            checkAllReduce(comm, count, seed + 1, true);
            for (int root = 0; root < comm.getSize(); root++) {
                checkReduce(comm, count, seed + root, root, root % 2 == 1);
            }
            checkReduceScatterBlock(comm, count, seed, false, false);
            checkReduceScatterBlock(comm, count, seed + 1, true, false);
            checkReduceScatterBlock(comm, count, seed + 2, false, true);
            checkReduceScatterBlock(comm, count, seed + 3, true, true);
        }
    }

    /** Item {@code i} of rank {@code r}'s contribution. */
    private static int value(int r, int i, int seed) {
        return (r + 1) * 31 + i * 7 + seed;
    }

    /** The sum over {@code n} ranks of item {@code i}. */
    private static int sum(int n, int i, int seed) {
        int total = 0;
        for (int r = 0; r < n; r++) {
            total += value(r, i, seed);
        }
        return total;
    }

    private static IntBuffer contribution(Intracomm comm, int count, int seed) throws MPIException {
        IntBuffer buf = MPI.newIntBuffer(count);
        for (int i = 0; i < count; i++) {
            buf.put(i, value(comm.getRank(), i, seed));
        }
        return buf;
    }

    private static void checkAllReduce(Intracomm comm, int count, int seed, boolean inPlace) throws MPIException {
        IntBuffer mine = contribution(comm, count, seed);
        IntBuffer result = inPlace ? mine : MPI.newIntBuffer(count);
        Request request = inPlace ? comm.iAllReduce(mine, count, MPI.INT, MPI.SUM)
                : comm.iAllReduce(mine, result, count, MPI.INT, MPI.SUM);
        request.waitFor();
        expectSums(result, 0, count, comm.getSize(), seed, "iAllReduce of " + count + (inPlace ? " in place" : ""));
    }

    private static void checkReduce(Intracomm comm, int count, int seed, int root, boolean inPlace)
            throws MPIException {
        IntBuffer mine = contribution(comm, count, seed);
        boolean isRoot = comm.getRank() == root;
        IntBuffer result = inPlace ? mine : MPI.newIntBuffer(count);
        Request request = inPlace ? comm.iReduce(mine, count, MPI.INT, MPI.SUM, root)
                : comm.iReduce(mine, result, count, MPI.INT, MPI.SUM, root);
        while (!request.test()) { // tests alone complete it
            Thread.onSpinWait();
        }
        if (isRoot) {
            expectSums(result, 0, count, comm.getSize(), seed, "iReduce of " + count + " to " + root
                    + (inPlace ? " in place" : ""));
        }
    }

    /** Each rank's block {@code b} of {@code count} items: the items {@code b * count ...} of the vector. */
    private static void checkReduceScatterBlock(Intracomm comm, int count, int seed, boolean inPlace,
                                                boolean nonblocking) throws MPIException {
        int n = comm.getSize();
        IntBuffer mine = contribution(comm, n * count, seed);
        IntBuffer result = inPlace ? mine : MPI.newIntBuffer(count);
        if (nonblocking) {
            Request request = inPlace ? comm.iReduceScatterBlock(mine, count, MPI.INT, MPI.SUM)
                    : comm.iReduceScatterBlock(mine, result, count, MPI.INT, MPI.SUM);
            request.waitFor();
        } else if (inPlace) {
            comm.reduceScatterBlock(mine, count, MPI.INT, MPI.SUM);
        } else {
            comm.reduceScatterBlock(mine, result, count, MPI.INT, MPI.SUM);
        }
        int first = comm.getRank() * count;
        for (int i = 0; i < count; i++) {
            if (result.get(i) != sum(n, first + i, seed)) {
                throw new AssertionError((nonblocking ? "iR" : "r") + "educeScatterBlock of " + count
                        + (inPlace ? " in place" : "") + " on " + comm.getName() + ": item " + i + " is "
                        + result.get(i) + ", expected " + sum(n, first + i, seed));
            }
        }
    }

    /**
     * Twenty allreduces outstanding at once, then blocking collectives and a communicator's creation while they are,
     * then completed in reverse order.
     */
    private static void checkManyOutstanding(Intracomm comm) throws MPIException {
        IntBuffer[] results = new IntBuffer[OUTSTANDING];
        Request[] requests = new Request[OUTSTANDING];
        for (int k = 0; k < OUTSTANDING; k++) {
            results[k] = MPI.newIntBuffer(4);
            requests[k] = comm.iAllReduce(contribution(comm, 4, k), results[k], 4, MPI.INT, MPI.SUM);
        }
        IntBuffer[] others = reuseDroppedBuffers();
        int[] blocking = {comm.getRank()};
        comm.allReduce(blocking, 1, MPI.INT, MPI.SUM);
        Intracomm made = comm.dup();
        Request barrier = comm.iBarrier();
        int n = comm.getSize();
        if (blocking[0] != n * (n - 1) / 2) {
            throw new AssertionError("allReduce beside outstanding iAllReduces gave " + blocking[0]);
        }
        for (int k = OUTSTANDING - 1; k >= 0; k--) {
            requests[k].waitFor();
            expectSums(results[k], 0, 4, n, k, "iAllReduce " + k + " of " + OUTSTANDING + " outstanding");
        }
        barrier.waitFor();
        made.free();
        if (others[0].get(0) != -1) {
            throw new AssertionError("a buffer made while the iAllReduces were outstanding changed");
        }
    }

    /**
     * Collects the send buffers the program dropped (the requests must keep them: their memory would go back to
     * {@code MPI.newByteBuffer}'s free blocks) and makes as many new ones, filled with -1, which would take it.
     */
    private static IntBuffer[] reuseDroppedBuffers() {
        System.gc();
        try {
            Thread.sleep(20); // the cleaner's thread gives collected buffers' memory back
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        IntBuffer[] others = new IntBuffer[OUTSTANDING];
        for (int k = 0; k < OUTSTANDING; k++) {
            others[k] = MPI.newIntBuffer(4);
            for (int i = 0; i < 4; i++) {
                others[k].put(i, -1);
            }
        }
        return others;
    }

    /** The last rank arrives late at a nonblocking barrier: nobody's wait may end before it arrived. */
    /**
     * A communicator freed while its nonblocking collectives are outstanding: they complete normally (MPI_Comm_free
     * only marks it for deallocation). Its segment was unmapped under them: MPI_ERR_INTERN at the wait.
     */
    private static void checkOutstandingAcrossFree(Intracomm world) throws MPIException {
        int n = world.getSize();
        int me = world.getRank();
        for (int round = 0; round < 3; round++) {
            Intracomm dup = world.dup();
            dup.barrier(); // the segment is there: the nonblocking calls go through it
            IntBuffer in = MPI.newIntBuffer(4);
            IntBuffer sums = MPI.newIntBuffer(4);
            in.put(0, me + round);
            IntBuffer large = MPI.newIntBuffer(20_000); // over a slot: by message
            if (me == 0) {
                large.put(19_999, 77 + round);
            }
            Request reduction = dup.iAllReduce(in, sums, 4, MPI.INT, MPI.SUM);
            Request bcast = dup.iBcast(large, 20_000, MPI.INT, 0);
            dup.free();
            bcast.waitFor();
            reduction.waitFor();
            if (sums.get(0) != n * (n - 1) / 2 + n * round || large.get(19_999) != 77 + round) {
                throw new AssertionError("nonblocking collectives outstanding across free gave " + sums.get(0)
                        + " and " + large.get(19_999));
            }
        }
    }

    private static void checkBarrier(Intracomm comm) throws MPIException {
        int last = comm.getSize() - 1;
        int[] arrived = {0};
        if (comm.getRank() == last) {
            try {
                Thread.sleep(30);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            arrived[0] = 1;
        }
        comm.iBarrier().waitFor();
        comm.bcast(arrived, 1, MPI.INT, last);
        if (arrived[0] != 1) {
            throw new AssertionError("iBarrier on " + comm.getName() + " let a rank through early");
        }
    }

    private static void expectSums(IntBuffer got, int first, int count, int n, int seed, String what) {
        for (int i = 0; i < count; i++) {
            if (got.get(i) != sum(n, first + i, seed)) {
                throw new AssertionError(what + ": item " + i + " is " + got.get(i) + ", expected "
                        + sum(n, first + i, seed));
            }
        }
    }

    /**
     * The nonblocking bcast, gather, scatter, allgather and alltoall, from and to every root, in place and not, of a
     * few items and of more than a slot holds (those go by messages).
     */
    private static void checkBlocks(Intracomm comm, int seed) throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        for (int count : new int[] {1, 1000, 20_000}) {
            for (int root = 0; root < n; root++) {
                IntBuffer buf = me == root ? contribution(comm, count, seed + root) : MPI.newIntBuffer(count);
                comm.iBcast(buf, count, MPI.INT, root).waitFor();
                expectValues(buf, 0, count, root, seed + root, "iBcast of " + count + " from " + root);
                boolean inPlace = root % 2 == 1;
                IntBuffer all = MPI.newIntBuffer(n * count);
                IntBuffer mine = contribution(comm, count, seed);
                if (inPlace && me == root) {
                    mine.rewind();
                    all.position(me * count);
                    all.put(mine).rewind();
                    comm.iGather(all, count, MPI.INT, root).waitFor();
                } else {
                    comm.iGather(mine, count, MPI.INT, all, count, MPI.INT, root).waitFor();
                }
                for (int r = 0; r < n && me == root; r++) {
                    expectValues(all, r * count, count, r, seed, "iGather of " + count + " to " + root);
                }
                IntBuffer blocks = MPI.newIntBuffer(n * count);
                for (int r = 0; r < n && me == root; r++) {
                    for (int i = 0; i < count; i++) {
                        blocks.put(r * count + i, value(r, i, seed + 1));
                    }
                }
                IntBuffer got = inPlace && me == root ? blocks : MPI.newIntBuffer(count);
                if (inPlace && me == root) {
                    comm.iScatter(blocks, count, MPI.INT, root).waitFor();
                } else {
                    comm.iScatter(blocks, count, MPI.INT, got, count, MPI.INT, root).waitFor();
                }
                expectValues(got, inPlace && me == root ? me * count : 0, count, me, seed + 1,
                        "iScatter of " + count + " from " + root);
            }
            checkAllGatherAndAllToAll(comm, count, seed);
        }
    }

    private static void checkAllGatherAndAllToAll(Intracomm comm, int count, int seed) throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        IntBuffer all = MPI.newIntBuffer(n * count);
        comm.iAllGather(contribution(comm, count, seed), count, MPI.INT, all, count, MPI.INT).waitFor();
        IntBuffer inPlace = MPI.newIntBuffer(n * count);
        for (int i = 0; i < count; i++) {
            inPlace.put(me * count + i, value(me, i, seed));
        }
        comm.iAllGather(inPlace, count, MPI.INT).waitFor();
        for (int r = 0; r < n; r++) {
            expectValues(all, r * count, count, r, seed, "iAllGather of " + count);
            expectValues(inPlace, r * count, count, r, seed, "iAllGather in place of " + count);
        }
        IntBuffer send = MPI.newIntBuffer(n * count);
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < count; i++) {
                send.put(r * count + i, value(me, i, seed + r));
            }
        }
        IntBuffer recv = MPI.newIntBuffer(n * count);
        comm.iAllToAll(send, count, MPI.INT, recv, count, MPI.INT).waitFor();
        for (int r = 0; r < n; r++) {
            expectValues(recv, r * count, count, r, seed + me, "iAllToAll of " + count);
        }
    }

    /**
     * Twenty iBcasts from rotating roots and as many iAllGathers outstanding at once (more than the slot sets), a
     * blocking bcast among them, completed in reverse order.
     */
    private static void checkManyBlocksOutstanding(Intracomm comm) throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        IntBuffer[] bcasts = new IntBuffer[OUTSTANDING];
        IntBuffer[] gathered = new IntBuffer[OUTSTANDING];
        Request[] requests = new Request[2 * OUTSTANDING];
        for (int k = 0; k < OUTSTANDING; k++) {
            int root = k % n;
            bcasts[k] = me == root ? contribution(comm, 3, k) : MPI.newIntBuffer(3);
            requests[2 * k] = comm.iBcast(bcasts[k], 3, MPI.INT, root);
            gathered[k] = MPI.newIntBuffer(2 * n);
            requests[2 * k + 1] = comm.iAllGather(contribution(comm, 2, k), 2, MPI.INT, gathered[k], 2, MPI.INT);
        }
        int[] blocking = {me == 0 ? 42 : 0};
        comm.bcast(blocking, 1, MPI.INT, 0);
        if (blocking[0] != 42) {
            throw new AssertionError("bcast beside outstanding iBcasts gave " + blocking[0]);
        }
        for (int k = OUTSTANDING - 1; k >= 0; k--) {
            requests[2 * k + 1].waitFor();
            requests[2 * k].waitFor();
            expectValues(bcasts[k], 0, 3, k % n, k, "iBcast " + k + " of " + OUTSTANDING + " outstanding");
            for (int r = 0; r < n; r++) {
                expectValues(gathered[k], 2 * r, 2, r, k, "iAllGather " + k + " of " + OUTSTANDING + " outstanding");
            }
        }
    }

    /** Items {@code at..at+count} of {@code got} are rank {@code r}'s contribution under {@code seed}. */
    private static void expectValues(IntBuffer got, int at, int count, int r, int seed, String what) {
        for (int i = 0; i < count; i++) {
            if (got.get(at + i) != value(r, i, seed)) {
                throw new AssertionError(what + ": item " + i + " of rank " + r + "'s block is " + got.get(at + i)
                        + ", expected " + value(r, i, seed));
            }
        }
    }

    /**
     * A thousand each of small iAllReduce, iReduce, iBarrier, iReduceScatterBlock and reduceScatterBlock, iBcast,
     * iGather, iScatter, iAllGather and iAllToAll.
     */
    private static void countMessages(Intracomm world, String expectation) throws MPIException {
        int calls = 1000;
        int n = world.getSize();
        IntBuffer a = MPI.newIntBuffer(4 * n);
        IntBuffer b = MPI.newIntBuffer(4 * n);
        long before = sent();
        for (int i = 0; i < calls; i++) {
            world.iAllReduce(a, b, 4, MPI.INT, MPI.SUM).waitFor();
            world.iReduce(a, b, 4, MPI.INT, MPI.MAX, i % n).waitFor();
            world.iBarrier().waitFor();
            world.iReduceScatterBlock(a, b, 4, MPI.INT, MPI.SUM).waitFor();
            world.reduceScatterBlock(a, b, 4, MPI.INT, MPI.SUM);
            world.iBcast(a, 4, MPI.INT, i % n).waitFor();
            world.iGather(a, 1, MPI.INT, b, 1, MPI.INT, i % n).waitFor();
            world.iScatter(b, 1, MPI.INT, a, 1, MPI.INT, i % n).waitFor();
            world.iAllGather(a, 1, MPI.INT, b, 1, MPI.INT).waitFor();
            world.iAllToAll(b, 1, MPI.INT, a, 1, MPI.INT).waitFor();
        }
        long messages = sent() - before;
        System.out.println("SHARED-NONBLOCKING rank " + world.getRank() + " sent " + messages + " messages in "
                + 10 * calls + " collectives");
        if (expectation.equals("shared") && messages > calls / 10) {
            throw new AssertionError(messages + " messages for " + 10 * calls
                    + " small collectives on one host: they did not go through shared memory");
        }
    }

    private static long sent() throws MPIException {
        long total = 0;
        for (DeviceReport.MethodReport method : Weft.report().methods()) {
            total += method.rsrsSent();
        }
        return total;
    }
}
