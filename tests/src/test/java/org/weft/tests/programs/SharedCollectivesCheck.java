package org.weft.tests.programs;

import java.io.IOException;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import mpi.Datatype;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import org.weft.adi.DeviceReport;
import org.weft.api.Weft;

/**
 * Checks the blocking barrier, bcast, reduce, allreduce, allgather, gather, scatter and alltoall against a sequential computation of what they must give
 * — every predefined operation and type, in place and not, every root, counts around a shared slot's size, on the
 * world, a duplicate, a split, a reordered subgroup and an intercommunicator, used in turns; communicators freed and
 * made again; a blocking collective while a nonblocking one is outstanding; a bad buffer at one rank whose part only
 * reads, after which the collectives go on right. Then counts the messages a thousand of
 * each small collective sent: {@code shared} as the first argument asserts they sent (nearly) none, that the calls
 * went through shared memory; {@code messages} asserts they went as messages. Also checks that no shared segment's
 * file stays in the job directory. Prints {@code SHARED-COLLECTIVES OK} per rank.
 */
public final class SharedCollectivesCheck {
    private static final Op[] ARITHMETIC = {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN};
    private static final Op[] BITWISE = {MPI.BAND, MPI.BOR, MPI.BXOR, MPI.LAND, MPI.LOR, MPI.LXOR};
    private static final int[] COUNTS = {1, 1000};
    /** Around a slot (64 KiB of ints, less for big communicators) and well beyond: the schedules take over. */
    private static final int[] LARGE_COUNTS = {4096, 16384, 16385, 70000};
    /** How many small rooted collectives a writer makes before any reader does (more than the 16 slot sets). */
    private static final int AHEAD = 100;
    private static final long AHEAD_LIMIT_MS = 60_000;

    private SharedCollectivesCheck() {
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
        int size = world.getSize();
        Intracomm dup = world.dup();
        Intracomm half = world.split(rank % 2, size - rank);
        int[] reversed = new int[size];
        for (int r = 0; r < size; r++) {
            reversed[r] = size - 1 - r;
        }
        Group reversedGroup = world.getGroup().incl(reversed);
        Intracomm backwards = world.create(reversedGroup);
        Intracomm[] comms = {world, dup, half, backwards};
        for (Intracomm comm : comms) {
            checkReductions(comm, 0);
            checkBcasts(comm, 0);
            checkBlocks(comm, 0);
            checkBarrier(comm);
        }
        for (int round = 1; round < 7; round++) { // the communicators in turns, call after call
            for (Intracomm comm : comms) {
                checkAllReduce(comm, MPI.INT, MPI.SUM, 3, round, round % 2 == 0);
                checkReduce(comm, MPI.LONG, MPI.MAX, 2, round, round % comm.getSize(), round % 3 == 0);
                checkBcast(comm, 5, round, (round + 1) % comm.getSize(), round % 2 == 1);
                checkAllGather(comm, 2, round, round % 2 == 0);
                comm.barrier();
            }
        }
        for (int count : LARGE_COUNTS) {
            for (Intracomm comm : new Intracomm[] {world, backwards}) {
                checkAllReduce(comm, MPI.INT, MPI.SUM, count, 0, false);
                checkAllReduce(comm, MPI.DOUBLE, MPI.MAX, count, 1, true);
                checkReduce(comm, MPI.LONG, MPI.SUM, count, 2, comm.getSize() - 1, false);
                checkBcast(comm, count, 1, comm.getSize() - 1, false);
                checkAllGather(comm, count, 2, false);
                checkGather(comm, count, 3, 0, false);
                checkScatter(comm, count, 4, comm.getSize() - 1, false);
                checkAllToAll(comm, count / comm.getSize(), 5);
            }
        }
        checkIntercomm(world, half, rank, size);
        checkWithNonblockingOutstanding(world);
        checkArgumentErrorAtOneRank(world, args.length > 0 && args[0].equals("shared"));
        if (args.length > 0 && args[0].equals("shared")) {
            checkRootedRunAhead(world);
        }
        for (int i = 0; i < 20; i++) { // made and freed again and again: each segment released
            Intracomm again = (i % 2 == 0 ? world : backwards).dup();
            checkAllReduce(again, MPI.INT, MPI.SUM, 5, i, false);
            again.free();
        }
        world.barrier();
        checkNoSegmentFileLeft();
        countMessages(world, args.length > 0 ? args[0] : "");
        dup.free();
        half.free();
        backwards.free();
        System.out.println("SHARED-COLLECTIVES OK rank " + rank);
    }

    /**
     * Every predefined operation on every type it takes (a few items), reduced to every root for SUM; more items
     * for a few pairs.
     */
    private static void checkReductions(Intracomm comm, int round) throws MPIException {
        Datatype[] integers = {MPI.BYTE, MPI.SHORT, MPI.CHAR, MPI.INT, MPI.LONG};
        for (Datatype type : integers) {
            for (Op op : ARITHMETIC) {
                reduceEverywhere(comm, type, op, 3, round);
            }
            for (Op op : BITWISE) {
                reduceEverywhere(comm, type, op, 3, round);
            }
        }
        for (Datatype type : new Datatype[] {MPI.FLOAT, MPI.DOUBLE}) {
            for (Op op : ARITHMETIC) {
                reduceEverywhere(comm, type, op, 3, round);
            }
        }
        for (Op op : new Op[] {MPI.LAND, MPI.LOR, MPI.LXOR}) {
            reduceEverywhere(comm, MPI.BOOLEAN, op, 3, round);
        }
        checkLoc(comm, MPI.MINLOC, 3, round);
        checkLoc(comm, MPI.MAXLOC, 3, round);
        for (int count : COUNTS) {
            reduceEverywhere(comm, MPI.INT, MPI.SUM, count, round);
            reduceEverywhere(comm, MPI.DOUBLE, MPI.PROD, count, round);
            reduceEverywhere(comm, MPI.BYTE, MPI.BXOR, count, round);
            checkLoc(comm, MPI.MAXLOC, count, round);
        }
    }

    /** An allreduce, in place and not, and a reduce to a root (to every root for SUM), in place and not. */
    private static void reduceEverywhere(Intracomm comm, Datatype type, Op op, int count, int round)
            throws MPIException {
        checkAllReduce(comm, type, op, count, round, false);
        checkAllReduce(comm, type, op, count, round + 1, true);
        int roots = op == MPI.SUM ? comm.getSize() : 1;
        for (int i = 0; i < roots; i++) {
            int root = (i + round) % comm.getSize();
            checkReduce(comm, type, op, count, round + root, root, root % 2 == 1);
        }
    }

    static void checkAllReduce(Intracomm comm, Datatype type, Op op, int count, int seed, boolean inPlace)
            throws MPIException {
        Values v = new Values(type, count);
        Object mine = v.contribution(comm.getRank(), seed);
        Object result = inPlace ? mine : v.array();
        if (inPlace) {
            comm.allReduce(mine, count, type, op);
        } else {
            comm.allReduce(mine, result, count, type, op);
        }
        v.check(result, v.expected(op, comm.getSize(), seed), "allReduce " + describe(comm, type, op, count, inPlace));
    }

    static void checkReduce(Intracomm comm, Datatype type, Op op, int count, int seed, int root,
                                    boolean inPlace) throws MPIException {
        Values v = new Values(type, count);
        boolean isRoot = comm.getRank() == root;
        Object mine = v.contribution(comm.getRank(), seed);
        Object result = isRoot && inPlace ? mine : v.array();
        if (isRoot && inPlace) {
            comm.reduce(mine, count, type, op, root);
        } else {
            comm.reduce(mine, result, count, type, op, root);
        }
        if (isRoot) {
            v.check(result, v.expected(op, comm.getSize(), seed), "reduce to " + root + " "
                    + describe(comm, type, op, count, inPlace));
        }
    }

    private static void checkLoc(Intracomm comm, Op op, int count, int seed) throws MPIException {
        int n = comm.getSize();
        int[] pairs = new int[2 * count];
        for (int i = 0; i < count; i++) {
            pairs[2 * i] = Values.value(comm.getRank(), i, seed) % 5;
            pairs[2 * i + 1] = comm.getRank();
        }
        int[] out = new int[2 * count];
        comm.allReduce(pairs, out, count, MPI.INT2, op);
        for (int i = 0; i < count; i++) {
            int best = Values.value(0, i, seed) % 5;
            int at = 0;
            for (int r = 1; r < n; r++) {
                int x = Values.value(r, i, seed) % 5;
                if (op == MPI.MINLOC ? x < best : x > best) {
                    best = x;
                    at = r;
                }
            }
            if (out[2 * i] != best || out[2 * i + 1] != at) {
                throw new AssertionError("allReduce " + (op == MPI.MINLOC ? "MINLOC" : "MAXLOC") + " item " + i
                        + ": (" + out[2 * i] + ", " + out[2 * i + 1] + "), expected (" + best + ", " + at + ")");
            }
        }
    }

    private static void checkBcasts(Intracomm comm, int round) throws MPIException {
        for (int count : COUNTS) {
            for (int root = 0; root < comm.getSize(); root++) {
                checkBcast(comm, count, round + root, root, false);
                checkBcast(comm, count, round + root, root, true);
            }
        }
    }

    /** {@code strided}: the non-roots receive into every other int (a vector type), the root sends contiguous. */
    private static void checkBcast(Intracomm comm, int count, int seed, int root, boolean strided)
            throws MPIException {
        boolean isRoot = comm.getRank() == root;
        int[] buf = new int[strided ? 2 * count : count];
        if (isRoot) {
            for (int i = 0; i < count; i++) {
                buf[i] = Values.value(root, i, seed);
            }
            comm.bcast(buf, count, MPI.INT, root);
            return;
        }
        java.util.Arrays.fill(buf, -7);
        if (strided) {
            Datatype everyOther = Datatype.createVector(count, 1, 2, MPI.INT);
            everyOther.commit();
            comm.bcast(buf, 1, everyOther, root);
            everyOther.free();
        } else {
            comm.bcast(buf, count, MPI.INT, root);
        }
        for (int i = 0; i < count; i++) {
            int got = buf[strided ? 2 * i : i];
            if (got != Values.value(root, i, seed) || strided && buf[2 * i + 1] != -7) {
                throw new AssertionError("bcast from " + root + " of " + count + (strided ? " strided" : "")
                        + " on " + comm.getName() + ": item " + i + " is " + got);
            }
        }
    }

    /** Allgather, gather and scatter to and from every root and alltoall, in place and not. */
    private static void checkBlocks(Intracomm comm, int round) throws MPIException {
        for (int count : COUNTS) {
            checkAllGather(comm, count, round, false);
            checkAllGather(comm, count, round + 1, true);
            checkAllToAll(comm, count, round);
            for (int root = 0; root < comm.getSize(); root++) {
                checkGather(comm, count, round + root, root, false);
                checkGather(comm, count, round + root, root, true);
                checkScatter(comm, count, round + root, root, false);
                checkScatter(comm, count, round + root, root, true);
            }
        }
    }

    /** Block {@code r} of an allgather, gather or scatter's {@code n} blocks of {@code count} ints. */
    private static int blockValue(int r, int i, int seed) {
        return Values.value(r, i, seed) + 100 * r;
    }

    private static int[] blocksOf(int n, int count, int seed) {
        int[] all = new int[n * count];
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < count; i++) {
                all[r * count + i] = blockValue(r, i, seed);
            }
        }
        return all;
    }

    private static void checkAllGather(Intracomm comm, int count, int seed, boolean inPlace) throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        int[] all = new int[n * count];
        int[] expected = blocksOf(n, count, seed);
        if (inPlace) {
            System.arraycopy(expected, me * count, all, me * count, count);
            comm.allGather(all, count, MPI.INT);
        } else {
            comm.allGather(java.util.Arrays.copyOfRange(expected, me * count, (me + 1) * count), count, MPI.INT, all,
                    count, MPI.INT);
        }
        checkInts(all, expected, "allGather of " + count + (inPlace ? " in place" : "") + " on " + comm.getName());
    }

    private static void checkGather(Intracomm comm, int count, int seed, int root, boolean inPlace)
            throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        int[] expected = blocksOf(n, count, seed);
        int[] mine = java.util.Arrays.copyOfRange(expected, me * count, (me + 1) * count);
        int[] all = new int[n * count];
        if (inPlace && me == root) {
            System.arraycopy(mine, 0, all, me * count, count);
            comm.gather(all, count, MPI.INT, root);
        } else {
            comm.gather(mine, count, MPI.INT, all, count, MPI.INT, root);
        }
        if (me == root) {
            checkInts(all, expected, "gather to " + root + " of " + count + (inPlace ? " in place" : "") + " on "
                    + comm.getName());
        }
    }

    private static void checkScatter(Intracomm comm, int count, int seed, int root, boolean inPlace)
            throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        int[] all = me == root ? blocksOf(n, count, seed) : new int[n * count];
        int[] mine = new int[count];
        if (inPlace && me == root) {
            comm.scatter(all, count, MPI.INT, root);
            return; // the root's block stays where it is
        }
        comm.scatter(all, count, MPI.INT, mine, count, MPI.INT, root);
        checkInts(mine, java.util.Arrays.copyOfRange(blocksOf(n, count, seed), me * count, (me + 1) * count),
                "scatter from " + root + " of " + count + (inPlace ? " in place" : "") + " on " + comm.getName());
    }

    /** Block j of rank r's send buffer: {@code 1000 * r + j} and the item; rank r receives block r of every rank. */
    private static void checkAllToAll(Intracomm comm, int count, int seed) throws MPIException {
        int n = comm.getSize();
        int me = comm.getRank();
        int[] send = new int[n * count];
        int[] expected = new int[n * count];
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < count; i++) {
                send[j * count + i] = 1000 * me + 10 * j + Values.value(j, i, seed);
                expected[j * count + i] = 1000 * j + 10 * me + Values.value(me, i, seed);
            }
        }
        int[] recv = new int[n * count];
        comm.allToAll(send, count, MPI.INT, recv, count, MPI.INT);
        checkInts(recv, expected, "allToAll of " + count + " on " + comm.getName());
    }

    private static void checkInts(int[] got, int[] expected, String what) {
        for (int i = 0; i < expected.length; i++) {
            if (got[i] != expected[i]) {
                throw new AssertionError(what + ": item " + i + " is " + got[i] + ", expected " + expected[i]);
            }
        }
    }

    /** The last rank arrives late: nobody may leave before it arrived. */
    private static void checkBarrier(Intracomm comm) throws MPIException {
        int last = comm.getSize() - 1;
        int[] arrived = {0};
        if (comm.getRank() == last) {
            sleep(30);
            arrived[0] = 1;
        }
        comm.barrier();
        comm.bcast(arrived, 1, MPI.INT, last); // after the barrier the late rank's flag is set
        if (arrived[0] != 1) {
            throw new AssertionError("barrier on " + comm.getName() + " let a rank through early");
        }
    }

    /** An intercommunicator between the two halves keeps the schedules, and still reduces right. */
    private static void checkIntercomm(Intracomm world, Intracomm half, int rank, int size) throws MPIException {
        if (size < 2) {
            return;
        }
        Intracomm parity = world.split(rank % 2, rank);
        Intercomm inter = world.createIntercomm(parity, 0, rank % 2 == 0 ? 1 : 0, 77);
        int[] mine = {rank + 1};
        int[] sum = new int[1];
        inter.allReduce(mine, sum, 1, MPI.INT, MPI.SUM);
        int expected = 0;
        for (int r = 0; r < size; r++) {
            if (r % 2 != rank % 2) {
                expected += r + 1;
            }
        }
        if (sum[0] != expected) {
            throw new AssertionError("intercommunicator allReduce gave " + sum[0] + ", expected " + expected);
        }
        inter.barrier();
        inter.free();
        parity.free();
    }

    private static void checkWithNonblockingOutstanding(Intracomm world) throws MPIException {
        IntBuffer in = MPI.newIntBuffer(4);
        IntBuffer out = MPI.newIntBuffer(4);
        for (int i = 0; i < 4; i++) {
            in.put(i, world.getRank() + i);
        }
        Request pending = world.iAllReduce(in, out, 4, MPI.INT, MPI.SUM);
        checkAllReduce(world, MPI.INT, MPI.SUM, 7, 3, false);
        checkBcast(world, 9, 4, 0, false);
        world.barrier();
        pending.waitFor();
        int n = world.getSize();
        for (int i = 0; i < 4; i++) {
            if (out.get(i) != n * (n - 1) / 2 + n * i) {
                throw new AssertionError("iAllReduce beside blocking collectives gave " + out.get(i));
            }
        }
    }

    /**
     * A bad buffer where only one side reads — a gather's or reduce's root, a bcast's or scatter's non-roots, blocking
     * and not — is {@code ERR_BUFFER} there while the others complete, as with the schedules; then the communicator's
     * collectives go on with the right results. (Through the segment the failed ranks skipped the operation's number:
     * the next allreduce combined another operation's slots, 1 instead of 6 at 3 ranks, or hung; a reduce over a slot
     * runs one operation per chunk, and the root must skip them all — {@code shared} only: over the schedules or a
     * native site's MPI, as under Open MPI, a leaf's large message waits for its failed root's receive; in a native
     * site they skipped the native call, and the site's MPI paired their next gather with the others' failed one.)
     */
    private static void checkArgumentErrorAtOneRank(Intracomm world, boolean shared) throws MPIException {
        Intracomm comm = world.dup();
        comm.setErrhandler(MPI.ERRORS_RETURN);
        comm.barrier(); // the segment is there: the nonblocking calls go through it too
        int n = comm.getSize();
        int root = n - 1;
        boolean isRoot = comm.getRank() == root;
        IntBuffer readOnly = MPI.newIntBuffer(n).asReadOnlyBuffer();
        IntBuffer in = MPI.newIntBuffer(n);
        int[] ints = new int[n];
        int large = 40_000; // over a slot: a reduce in three chunks, three operation numbers
        IntBuffer readOnlyLarge = MPI.newIntBuffer(large).asReadOnlyBuffer();
        IntBuffer inLarge = MPI.newIntBuffer(large);
        String[] calls = shared
                ? new String[] {"gather", "reduce", "bcast", "scatter", "igather", "ireduce", "ibcast", "iscatter",
                    "largereduce"}
                : new String[] {"gather", "reduce", "bcast", "scatter", "igather", "ireduce", "ibcast", "iscatter"};
        for (String call : calls) {
            boolean reader = call.contains("gather") || call.contains("reduce") ? isRoot : !isRoot;
            Object buf = reader ? readOnly : in;
            try {
                switch (call) {
                    case "gather" -> comm.gather(ints, 1, MPI.INT, buf, 1, MPI.INT, root);
                    case "reduce" -> comm.reduce(ints, buf, 1, MPI.INT, MPI.SUM, root);
                    case "largereduce" -> comm.reduce(new int[large], reader ? readOnlyLarge : inLarge, large, MPI.INT,
                            MPI.SUM, root);
                    case "bcast" -> comm.bcast(buf, 1, MPI.INT, root);
                    case "scatter" -> comm.scatter(ints, 1, MPI.INT, buf, 1, MPI.INT, root);
                    case "igather" -> comm.iGather(in, 1, MPI.INT, (IntBuffer) buf, 1, MPI.INT, root).waitFor();
                    case "ireduce" -> comm.iReduce(in, (IntBuffer) buf, 1, MPI.INT, MPI.SUM, root).waitFor();
                    case "ibcast" -> comm.iBcast((IntBuffer) buf, 1, MPI.INT, root).waitFor();
                    default -> comm.iScatter(in, 1, MPI.INT, (IntBuffer) buf, 1, MPI.INT, root).waitFor();
                }
                if (reader) {
                    throw new AssertionError(call + " into a read-only buffer did not fail");
                }
            } catch (MPIException e) {
                if (!reader || e.getErrorClass() != MPI.ERR_BUFFER) {
                    throw e;
                }
            }
            checkAllReduce(comm, MPI.INT, MPI.SUM, 2, 5, false);
            checkBcast(comm, 3, 6, 0, false);
            checkGather(comm, 2, 7, root, false);
        }
        for (int i = 0; i < 20; i++) { // more failed calls in a row than the segment has slot sets
            try {
                comm.allReduce(ints, readOnly, 1, MPI.INT, MPI.SUM);
                throw new AssertionError("allreduce into a read-only buffer did not fail");
            } catch (MPIException e) {
                if (e.getErrorClass() != MPI.ERR_BUFFER) {
                    throw e;
                }
            }
        }
        checkAllReduce(comm, MPI.INT, MPI.SUM, 2, 5, false);
        checkBcast(comm, 3, 6, 0, false);
        comm.free();
    }

    /**
     * The writers of small rooted collectives run ahead of their readers without waiting for them, as Open MPI's do
     * through its FIFOs: a bcast's and a scatter's root, a reduce's and a gather's leaves make {@link #AHEAD} calls
     * (each carrying its number) before the readers make any — the writers then tell the readers to start, and a
     * reader that has not heard within {@link #AHEAD_LIMIT_MS} fails. (Erroneous in MPI, as relying on buffered
     * sends is; it shows that no writer waits.) With 16 slot sets the writers waited at the 17th call.
     */
    private static void checkRootedRunAhead(Intracomm world) throws MPIException {
        int n = world.getSize();
        int me = world.getRank();
        int[] one = new int[1];
        int[] all = new int[n];
        for (String kind : new String[] {"bcast", "scatter", "reduce", "gather"}) {
            boolean writer = (me == 0) == (kind.equals("bcast") || kind.equals("scatter"));
            if (!writer) {
                awaitGo(world, kind);
            }
            for (int i = 0; i < AHEAD; i++) {
                java.util.Arrays.fill(all, i);
                one[0] = me == 0 ? i : -1;
                switch (kind) {
                    case "bcast" -> world.bcast(one, 1, MPI.INT, 0);
                    case "scatter" -> world.scatter(all, 1, MPI.INT, one, 1, MPI.INT, 0);
                    case "reduce" -> {
                        one[0] = i;
                        world.reduce(one, all, 1, MPI.INT, MPI.SUM, 0);
                        one[0] = me == 0 ? all[0] / n : i;
                    }
                    default -> {
                        one[0] = i;
                        world.gather(one, 1, MPI.INT, all, 1, MPI.INT, 0);
                        one[0] = me == 0 ? all[n - 1] : i;
                    }
                }
                if (one[0] != i) {
                    throw new AssertionError(kind + " " + i + " run ahead gave " + one[0] + " at rank " + me);
                }
            }
            if (writer) {
                for (int r = 0; r < n; r++) {
                    if ((r == 0) != (me == 0)) {
                        world.send(new int[] {1}, 1, MPI.INT, r, 77);
                    }
                }
            }
            world.barrier();
        }
    }

    /** Waits for the go of every writer ({@link #checkRootedRunAhead}); fails if one has not come in time. */
    private static void awaitGo(Intracomm world, String kind) throws MPIException {
        int me = world.getRank();
        for (int r = 0; r < world.getSize(); r++) {
            if ((r == 0) == (me == 0)) {
                continue;
            }
            IntBuffer go = MPI.newIntBuffer(1);
            Request request = world.iRecv(go, 1, MPI.INT, r, 77);
            long deadline = System.currentTimeMillis() + AHEAD_LIMIT_MS;
            while (!request.test()) {
                if (System.currentTimeMillis() > deadline) {
                    throw new AssertionError("rank " + r + " did not make " + AHEAD + " calls of " + kind
                            + " before rank " + me + " made any: its writers wait for their readers");
                }
                sleep(1);
            }
        }
    }

    private static void checkNoSegmentFileLeft() throws IOException {
        String dir = System.getenv("WEFT_JOB_DIR");
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.list(Path.of(dir))) {
            // MPI.newByteBuffer's chunk files (coll-heap-*) keep their names while the runtime lives, by design
            java.util.List<String> left = files.map(p -> p.getFileName().toString())
                    .filter(name -> name.startsWith("coll-") && !name.startsWith("coll-heap-")).toList();
            if (!left.isEmpty()) {
                throw new AssertionError("shared segments left in the job directory: " + left);
            }
        }
    }

    /** A thousand each of small allreduce, reduce, bcast, barrier, allgather, gather, scatter and alltoall, and the messages this rank sent meanwhile. */
    private static void countMessages(Intracomm world, String expectation) throws MPIException {
        int calls = 1000;
        long before = sent();
        int[] a = new int[Math.max(4, world.getSize())];
        int[] b = new int[Math.max(4, world.getSize())];
        for (int i = 0; i < calls; i++) {
            a[0] = i;
            world.allReduce(a, b, 4, MPI.INT, MPI.SUM);
            world.reduce(a, b, 4, MPI.INT, MPI.MAX, i % world.getSize());
            world.bcast(a, 4, MPI.INT, i % world.getSize());
            world.barrier();
            world.allGather(a, 1, MPI.INT, b, 1, MPI.INT);
            world.gather(a, 1, MPI.INT, b, 1, MPI.INT, i % world.getSize());
            world.scatter(b, 1, MPI.INT, a, 1, MPI.INT, i % world.getSize());
            world.allToAll(b, 1, MPI.INT, a, 1, MPI.INT);
        }
        long messages = sent() - before;
        System.out.println("SHARED-COLLECTIVES rank " + world.getRank() + " sent " + messages + " messages in "
                + 8 * calls + " collectives");
        if (expectation.equals("shared") && messages > calls / 10) {
            throw new AssertionError(messages + " messages for " + 8 * calls
                    + " small collectives on one host: they did not go through shared memory");
        }
        if (expectation.equals("messages") && messages < calls) {
            throw new AssertionError("only " + messages + " messages for " + 8 * calls + " collectives");
        }
    }

    /** Messages this rank has sent so far, by every method. */
    static long sent() throws MPIException {
        long total = 0;
        for (DeviceReport.MethodReport method : Weft.report().methods()) {
            total += method.rsrsSent();
        }
        return total;
    }

    private static String describe(Intracomm comm, Datatype type, Op op, int count, boolean inPlace)
            throws MPIException {
        return "of " + count + " " + type.getName() + " " + op + (inPlace ? " in place" : "") + " on "
                + comm.getName() + " (" + comm.getSize() + " ranks)";
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
