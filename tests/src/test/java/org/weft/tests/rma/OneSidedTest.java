package org.weft.tests.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.function.IntFunction;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Win;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.comm.Worlds;
import org.weft.tests.harness.InProcessWorld;

/**
 * One-sided communication (MPI chapter 11) on every size and method set of {@link Worlds}: window creation and
 * attributes, puts and gets (predefined and derived target types) under fence, accumulates with every predefined
 * operation, their atomicity against each other, get-accumulate, fetch-and-op, compare-and-swap, passive-target
 * locks, and the error classes of bad calls.
 */
@Timeout(180)
class OneSidedTest {
    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void windowsPutsGetsAndAccumulates(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            everyCase(MPI.COMM_WORLD, rank, size);
        });
    }

    private static void everyCase(Intracomm world, int rank, int size) throws MPIException {
        windowObjects(world, rank, size);
        fencedPutsAndGets(world, rank, size);
        derivedTargetTypes(world, rank, size);
        everyAccumulateOperation(world, rank, size);
        locationAccumulates(world, rank, size);
        atomicCounters(world, rank, size);
        passiveTarget(world, rank, size);
        postStartCompleteWait(world, rank, size);
        requestBasedOperations(world, rank, size);
        putsAndGetsAtTheEdges(world, rank, size);
    }

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void badCallsRaiseTheirClasses(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            errorClasses(MPI.COMM_WORLD, rank, size);
        });
    }

    /**
     * The same cases over windows in shared memory (buffers from {@code MPI.newByteBuffer}, ranks of one host):
     * origins store, load and lock in the target's memory themselves, so no window has a service thread; plus
     * accumulates from every rank at once on the same elements, and exclusive locks around read-modify-writes.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4})
    void windowsInSharedMemory(int size) throws Exception {
        newBuffer = MPI::newByteBuffer;
        try {
            Worlds.of(size, "default").run(rank -> {
                Intracomm world = MPI.COMM_WORLD;
                world.setErrhandler(MPI.ERRORS_RETURN);
                noServiceThread(world, rank);
                everyCase(world, rank, size);
                accumulatesFromEveryRankAtOnce(world, rank, size);
                exclusiveLocksSerialiseUpdates(world, rank, size);
                fencesInARow(world, rank, size);
                atomicsAgainstEachOther(world, rank, size);
                narrowAtomicsAgainstEachOther(world, rank, size);
                errorClasses(world, rank, size);
            });
        } finally {
            newBuffer = OneSidedTest::privateBuffer;
        }
    }

    /**
     * Ranks of two hosts (0 and 1 on one, 2 on another) with buffers from {@code MPI.newByteBuffer}: a window
     * that spans both hosts keeps its messages at every member (its service threads serve them) and gives the same
     * results as elsewhere.
     */
    @org.junit.jupiter.api.Test
    void aWindowAcrossHostsKeepsMessages() throws Exception {
        newBuffer = MPI::newByteBuffer;
        try {
            InProcessWorld.of(3).perRank("host", r -> r < 2 ? "near" : "far").run(rank -> {
                MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
                assertEquals(1, newServiceThreads(MPI.COMM_WORLD, rank), "a window across hosts has its service");
                everyCase(MPI.COMM_WORLD, rank, 3);
                accumulatesFromEveryRankAtOnce(MPI.COMM_WORLD, rank, 3);
            });
        } finally {
            newBuffer = OneSidedTest::privateBuffer;
        }
    }

    /** A window over {@code MPI.newByteBuffer}'s memory on one host starts no thread (an idle one costs nothing). */
    private static void noServiceThread(Intracomm world, int rank) throws MPIException {
        assertEquals(0, newServiceThreads(world, rank), "a window in shared memory has no service thread");
    }

    /** How many service threads this rank starts for a window over {@code MPI.newByteBuffer}'s memory. */
    private static long newServiceThreads(Intracomm world, int rank) throws MPIException {
        java.util.Set<Thread> before = Thread.getAllStackTraces().keySet();
        Win win = new Win(MPI.newByteBuffer(8), 8, 1, MPI.INFO_NULL, world);
        String prefix = "weft-window-" + rank + "-";
        long started = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix) && !before.contains(t)).count();
        win.free();
        return started;
    }

    /** Every rank adds 1 to the same four ints of rank 0's window 10 000 times at once: not one update is lost. */
    private static void accumulatesFromEveryRankAtOnce(Intracomm world, int rank, int size) throws MPIException {
        int adds = 10_000;
        IntBuffer memory = ints(4);
        Win win = new Win(memory, 4, 4, MPI.INFO_NULL, world);
        IntBuffer ones = ints(4);
        for (int i = 0; i < 4; i++) {
            ones.put(i, 1);
        }
        world.barrier();
        win.lockAll(0);
        for (int i = 0; i < adds; i++) {
            win.accumulate(ones, 4, MPI.INT, 0, 0, 4, MPI.INT, MPI.SUM);
        }
        win.unlockAll();
        world.barrier();
        if (rank == 0) {
            for (int i = 0; i < 4; i++) {
                assertEquals(adds * size, memory.get(i), "element " + i + " after " + size + " x " + adds + " adds");
            }
        }
        win.free();
    }

    /**
     * Each rank takes rank 0's exclusive lock 300 times to read a counter, add one and write it back, with a pause
     * between the read and the write: an increment lost would show a holder's sequence interleaved with another's.
     */
    private static void exclusiveLocksSerialiseUpdates(Intracomm world, int rank, int size) throws MPIException {
        int rounds = 300;
        LongBuffer memory = longs(1);
        Win win = new Win(memory, 1, 8, MPI.INFO_NULL, world);
        LongBuffer value = longs(1);
        for (int i = 0; i < rounds; i++) {
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            win.get(value, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            win.flush(0);
            if (i % 50 == 0) {
                Thread.yield(); // let another rank try to get in between
            }
            value.put(0, value.get(0) + 1);
            win.put(value, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            win.unlock(0);
        }
        world.barrier();
        if (rank == 0) {
            assertEquals((long) rounds * size, memory.get(0), "no increment lost under exclusive locks");
        }
        win.free();
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3})
    void sharedWindowsNeedOneHost(int size) throws Exception {
        InProcessWorld.of(size).run(rank -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            Win shared = new Win(8, 4, MPI.INFO_NULL, MPI.COMM_WORLD, ByteBuffer.allocateDirect(8), Win.FLAVOR_SHARED);
            assertEquals(MPI.WIN_FLAVOR_SHARED, shared.getAttr(MPI.WIN_CREATE_FLAVOR));
            shared.free();
        });
        if (size > 1) {
            InProcessWorld.of(size).perRank("host", r -> "host" + r).run(rank -> {
                MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
                expect(MPI.ERR_RMA_SHARED, () -> new Win(8, 4, MPI.INFO_NULL, MPI.COMM_WORLD,
                        ByteBuffer.allocateDirect(8), Win.FLAVOR_SHARED));
            });
        }
    }

    /**
     * Where the cases take their windows' (and origins') buffers: private direct buffers, which keep a window's
     * operations messages to the target's service thread, or {@code MPI.newByteBuffer}'s, which put it in shared
     * memory on one host. Set by a test before its world runs (the ranks' threads read it).
     */
    private static volatile IntFunction<ByteBuffer> newBuffer = OneSidedTest::privateBuffer;

    private static ByteBuffer privateBuffer(int bytes) {
        return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
    }

    static ByteBuffer bytes(int n) {
        return newBuffer.apply(n);
    }

    static IntBuffer ints(int n) {
        return bytes(4 * n).asIntBuffer();
    }

    static LongBuffer longs(int n) {
        return bytes(8 * n).asLongBuffer();
    }

    private static void windowObjects(Intracomm world, int rank, int size) throws MPIException {
        IntBuffer memory = ints(8);
        Win win = new Win(memory, 8, 4, MPI.INFO_NULL, world);
        assertEquals(32, win.getAttr(MPI.WIN_SIZE));
        assertEquals(4, win.getAttr(MPI.WIN_DISP_UNIT));
        assertEquals(MPI.WIN_FLAVOR_CREATE, win.getAttr(MPI.WIN_CREATE_FLAVOR));
        assertEquals(MPI.WIN_UNIFIED, win.getAttr(MPI.WIN_MODEL));
        assertNotEquals(0L, win.getAttr(MPI.WIN_BASE));
        assertEquals(size, win.getGroup().getSize());
        assertEquals(rank, win.getGroup().getRank());
        assertEquals("", win.getName());
        win.setName("grid");
        assertEquals("grid", win.getName());
        assertEquals(MPI.ERRORS_ARE_FATAL, win.getErrhandler(), "a window's default handler is ERRORS_ARE_FATAL");
        win.setErrhandler(MPI.ERRORS_RETURN);
        win.callErrhandler(MPI.ERR_OTHER); // returns under ERRORS_RETURN
        int key = Win.createKeyval();
        win.setAttr(key, "value");
        assertEquals("value", win.getAttr(key));
        win.deleteAttr(key);
        Win.freeKeyval(key);
        win.free();
        MPIException freed = assertThrows(MPIException.class, () -> win.fence(0));
        assertEquals(MPI.ERR_WIN, freed.getErrorClass());

        Win empty = new Win(null, 0, 1, MPI.INFO_NULL, world); // a zero-size window: valid, nothing fits in it
        assertEquals(0, empty.getAttr(MPI.WIN_SIZE));
        empty.setErrhandler(MPI.ERRORS_RETURN);
        empty.fence(0);
        empty.put(ints(1), 0, MPI.INT, (rank + 1) % size, 0, 0, MPI.INT); // no data: in range
        MPIException outside = assertThrows(MPIException.class,
                () -> empty.put(ints(1), 1, MPI.INT, (rank + 1) % size, 0, 1, MPI.INT));
        assertEquals(MPI.ERR_RMA_RANGE, outside.getErrorClass());
        empty.fence(0);
        empty.free();

        IntBuffer mine = ints(2);
        Win self = new Win(mine, 2, 4, MPI.INFO_NULL, MPI.COMM_SELF);
        self.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
        self.put(IntBuffer.wrap(new int[] {rank, 7}), 2, MPI.INT, 0, 0, 2, MPI.INT);
        self.unlock(0);
        assertEquals(rank, mine.get(0));
        assertEquals(7, mine.get(1));
        self.free();

        ByteBuffer allocated = bytes(64);
        Win allocatedWin = new Win(64, 8, MPI.INFO_NULL, world, allocated, Win.FLAVOR_PRIVATE);
        assertEquals(MPI.WIN_FLAVOR_ALLOCATE, allocatedWin.getAttr(MPI.WIN_CREATE_FLAVOR));
        allocatedWin.free();
    }

    /** Every rank puts into slot {@code rank} of every window, then gets its left neighbour's whole window. */
    private static void fencedPutsAndGets(Intracomm world, int rank, int size) throws MPIException {
        IntBuffer memory = ints(size);
        Win win = new Win(memory, size, 4, MPI.INFO_NULL, world);
        win.setErrhandler(MPI.ERRORS_RETURN);
        win.fence(MPI.MODE_NOPRECEDE);
        for (int target = 0; target < size; target++) {
            IntBuffer value = ints(1).put(0, 1000 * (rank + 1) + target);
            win.put(value, 1, MPI.INT, target, rank, 1, MPI.INT);
        }
        win.fence(0);
        for (int origin = 0; origin < size; origin++) {
            assertEquals(1000 * (origin + 1) + rank, memory.get(origin), "slot " + origin);
        }
        int left = (rank + size - 1) % size;
        int[] fetched = new int[size];
        IntBuffer into = ints(size);
        win.get(into, size, MPI.INT, left, 0, size, MPI.INT);
        win.fence(MPI.MODE_NOSUCCEED);
        into.get(0, fetched);
        for (int origin = 0; origin < size; origin++) {
            assertEquals(1000 * (origin + 1) + left, fetched[origin]);
        }
        win.free();
    }

    /** A put and a get through a strided target type, and a heap origin buffer. */
    private static void derivedTargetTypes(Intracomm world, int rank, int size) throws MPIException {
        IntBuffer memory = ints(6);
        Win win = new Win(memory, 6, 4, MPI.INFO_NULL, world);
        Datatype everyOther = Datatype.createVector(3, 1, 2, MPI.INT);
        everyOther.commit();
        int right = (rank + 1) % size;
        win.fence(0);
        win.put(IntBuffer.wrap(new int[] {rank, rank + 1, rank + 2}), 3, MPI.INT, right, 1, 1, everyOther);
        win.fence(0);
        int left = (rank + size - 1) % size;
        int[] expected = {0, left, 0, left + 1, 0, left + 2};
        int[] actual = new int[6];
        memory.get(0, actual);
        assertEquals(Arrays.toString(expected), Arrays.toString(actual));
        IntBuffer back = ints(3);
        win.get(back, 3, MPI.INT, rank, 1, 1, everyOther);
        win.fence(0);
        assertEquals(left + 2, back.get(2));
        everyOther.free();
        win.free();
    }

    /** Each predefined operation, applied by every rank once to rank 0's slot for it, against the local result. */
    private static void everyAccumulateOperation(Intracomm world, int rank, int size) throws MPIException {
        Op[] ops = {MPI.SUM, MPI.PROD, MPI.MAX, MPI.MIN, MPI.BAND, MPI.BOR, MPI.BXOR, MPI.LAND, MPI.LOR, MPI.LXOR,
            MPI.REPLACE, MPI.NO_OP};
        IntBuffer memory = ints(ops.length);
        int start = 6;
        for (int i = 0; i < ops.length; i++) {
            memory.put(i, start);
        }
        Win win = new Win(memory, ops.length, 4, MPI.INFO_NULL, world);
        win.fence(0);
        for (int i = 0; i < ops.length; i++) {
            win.accumulate(ints(1).put(0, rank + 3), 1, MPI.INT, 0, i, 1, MPI.INT, ops[i]);
        }
        win.fence(0);
        if (rank == 0) {
            for (int i = 0; i < ops.length; i++) {
                int expected = start;
                for (int r = 0; r < size; r++) {
                    expected = apply(i, r + 3, expected);
                }
                if (i == 10) {
                    assertTrue(memory.get(i) >= 3 && memory.get(i) < size + 3, "REPLACE leaves one origin's value");
                } else {
                    assertEquals(expected, memory.get(i), "operation " + i);
                }
            }
        }
        win.free();
    }

    /**
     * MAXLOC and MINLOC accumulates on MPI.DOUBLE_INT records (C layout: the double, the int at 8, 16 bytes) at rank
     * 0, and a fetch of the pair with getAccumulate: the best value wins, on a tie the lowest index.
     */
    private static void locationAccumulates(Intracomm world, int rank, int size) throws MPIException {
        ByteBuffer memory = bytes(32);
        memory.putDouble(0, -1e9).putInt(8, -1).putDouble(16, 1e9).putInt(24, -1);
        Win win = new Win(memory, 32, 16, MPI.INFO_NULL, world);
        win.fence(0);
        ByteBuffer mine = bytes(16);
        mine.putDouble(0, locValue(rank, size)).putInt(8, rank);
        win.accumulate(mine, 1, MPI.DOUBLE_INT, 0, 0, 1, MPI.DOUBLE_INT, MPI.MAXLOC);
        win.accumulate(mine, 1, MPI.DOUBLE_INT, 0, 1, 1, MPI.DOUBLE_INT, MPI.MINLOC);
        win.fence(0);
        int best = 0;
        int least = 0;
        for (int r = 1; r < size; r++) {
            best = locValue(r, size) > locValue(best, size) ? r : best;
            least = locValue(r, size) < locValue(least, size) ? r : least;
        }
        ByteBuffer fetched = bytes(16);
        win.lock(MPI.LOCK_SHARED, 0, 0);
        win.getAccumulate(mine, 1, MPI.DOUBLE_INT, fetched, 1, MPI.DOUBLE_INT, 0, 0, 1, MPI.DOUBLE_INT, MPI.NO_OP);
        win.unlock(0);
        assertEquals(locValue(best, size), fetched.getDouble(0), "MAXLOC's value, fetched");
        assertEquals(best, fetched.getInt(8), "MAXLOC's index, fetched");
        world.barrier();
        if (rank == 0) {
            assertEquals(locValue(least, size), memory.getDouble(16), "MINLOC's value");
            assertEquals(least, memory.getInt(24), "MINLOC's index: on a tie the lowest");
        }
        win.setErrhandler(MPI.ERRORS_RETURN);
        expect(MPI.ERR_OP, () -> win.accumulate(mine, 1, MPI.DOUBLE_INT, 0, 0, 1, MPI.DOUBLE_INT, MPI.SUM));
        win.free();
    }

    /** Values with ties once there are more than three ranks. */
    private static double locValue(int rank, int size) {
        return (rank * 7) % 3 + 0.5;
    }

    private static int apply(int op, int in, int target) {
        return switch (op) {
            case 0 -> in + target;
            case 1 -> in * target;
            case 2 -> Math.max(in, target);
            case 3 -> Math.min(in, target);
            case 4 -> in & target;
            case 5 -> in | target;
            case 6 -> in ^ target;
            case 7 -> in != 0 && target != 0 ? 1 : 0;
            case 8 -> in != 0 || target != 0 ? 1 : 0;
            case 9 -> (in != 0) != (target != 0) ? 1 : 0;
            case 10 -> in;
            default -> target;
        };
    }

    /**
     * Many ranks add to one counter with accumulate, and take tickets with fetch-and-op, at once: no update is
     * lost and no ticket is given twice (accumulates are atomic per element). Compare-and-swap elects one rank.
     */
    private static void atomicCounters(Intracomm world, int rank, int size) throws MPIException {
        int rounds = 40;
        LongBuffer memory = longs(3).put(2, -1);
        Win win = new Win(memory, 3, 8, MPI.INFO_NULL, world);
        win.lockAll(0);
        long[] tickets = new long[rounds];
        LongBuffer one = longs(1).put(0, 1);
        LongBuffer ticket = longs(1);
        for (int i = 0; i < rounds; i++) {
            win.accumulate(one, 1, MPI.LONG, 0, 0, 1, MPI.LONG, MPI.SUM);
            win.fetchAndOp(one, ticket, MPI.LONG, 0, 1, MPI.SUM);
            tickets[i] = ticket.get(0);
        }
        LongBuffer old = longs(1);
        win.compareAndSwap(longs(1).put(0, rank), longs(1).put(0, -1), old, MPI.LONG, 0, 2);
        win.unlockAll();
        long[] all = new long[rounds * size];
        world.allGather(tickets, rounds, MPI.LONG, all, rounds, MPI.LONG);
        Arrays.sort(all);
        for (int i = 0; i < all.length; i++) {
            assertEquals(i, all[i], "each ticket once");
        }
        long[] olds = new long[size];
        world.allGather(new long[] {old.get(0)}, 1, MPI.LONG, olds, 1, MPI.LONG);
        assertEquals(1, Arrays.stream(olds).filter(v -> v == -1).count(), "exactly one rank wins the swap");
        win.fence(0);
        if (rank == 0) {
            assertEquals((long) rounds * size, memory.get(0), "no accumulate lost");
            assertEquals(Arrays.stream(olds).boxed().toList().indexOf(-1L), memory.get(2));
        }
        LongBuffer result = longs(1);
        win.getAccumulate(null, 0, MPI.LONG, result, 1, MPI.LONG, 0, 0, 1, MPI.LONG, MPI.NO_OP);
        assertEquals((long) rounds * size, result.get(0));
        win.fence(0);
        win.free();
    }

    /** Exclusive locks serialise read-modify-write sequences; a shared lock lets everyone read. */
    private static void passiveTarget(Intracomm world, int rank, int size) throws MPIException {
        IntBuffer memory = ints(1);
        Win win = new Win(memory, 1, 4, MPI.INFO_NULL, world);
        IntBuffer value = ints(1);
        int target = size - 1;
        for (int i = 0; i < 5; i++) {
            win.lock(MPI.LOCK_EXCLUSIVE, target, 0);
            win.get(value, 1, MPI.INT, target, 0, 1, MPI.INT);
            value.put(0, value.get(0) + 1);
            win.put(value, 1, MPI.INT, target, 0, 1, MPI.INT);
            win.unlock(target);
        }
        world.barrier();
        win.lock(MPI.LOCK_SHARED, target, 0);
        win.get(value, 1, MPI.INT, target, 0, 1, MPI.INT);
        win.flush(target);
        win.flushLocal(target);
        win.unlock(target);
        assertEquals(5 * size, value.get(0), "no increment lost under exclusive locks");
        win.sync();
        world.barrier();
        if (size >= 3) {
            uncheckedLockLeavesOthersLocksAlone(win, world, rank);
        }
        win.free();
    }

    /**
     * Rank 0 holds a shared lock on rank 2 while rank 1 locks and unlocks rank 2 with MPI_MODE_NOCHECK; rank 2's
     * exclusive lock on itself must still wait for rank 0's unlock, so it reads what rank 0 wrote just before.
     */
    private static void uncheckedLockLeavesOthersLocksAlone(Win win, Intracomm world, int rank)
            throws MPIException {
        int target = 2;
        if (rank == 0) {
            win.lock(MPI.LOCK_SHARED, target, 0);
        }
        world.barrier();
        if (rank == 1) {
            win.lock(MPI.LOCK_SHARED, target, MPI.MODE_NOCHECK);
            win.unlock(target);
        }
        world.barrier();
        if (rank == 0) {
            sleep(300);
            win.put(ints(1).put(0, -7), 1, MPI.INT, target, 0, 1, MPI.INT);
            win.unlock(target);
        } else if (rank == target) {
            IntBuffer seen = ints(1);
            win.lock(MPI.LOCK_EXCLUSIVE, target, 0);
            win.get(seen, 1, MPI.INT, target, 0, 1, MPI.INT);
            win.unlock(target);
            assertEquals(-7, seen.get(0), "the exclusive lock was granted while rank 0 held a shared one");
        }
        world.barrier();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Each rank exposes its window to its left neighbour and accesses its right one's (general active target). */
    private static void postStartCompleteWait(Intracomm world, int rank, int size) throws MPIException {
        IntBuffer memory = ints(1);
        Win win = new Win(memory, 1, 4, MPI.INFO_NULL, world);
        int left = (rank + size - 1) % size;
        int right = (rank + 1) % size;
        mpi.Group group = world.getGroup();
        mpi.Group leftGroup = group.incl(new int[] {left});
        mpi.Group rightGroup = group.incl(new int[] {right});
        for (int round = 1; round <= 3; round++) {
            win.post(leftGroup, 0);
            win.start(rightGroup, 0);
            win.put(ints(1).put(0, 100 * round + rank), 1, MPI.INT, right, 0, 1, MPI.INT);
            win.complete();
            if (round == 3) {
                while (!win.test()) {
                    Thread.onSpinWait();
                }
            } else {
                win.waitFor();
            }
            assertEquals(100 * round + left, memory.get(0), "round " + round);
        }
        win.free();
    }

    /** rPut, rGet, rAccumulate and rGetAccumulate return requests that complete as their blocking forms do. */
    private static void requestBasedOperations(Intracomm world, int rank, int size) throws MPIException {
        LongBuffer memory = longs(2);
        Win win = new Win(memory, 2, 8, MPI.INFO_NULL, world);
        int right = (rank + 1) % size;
        win.lockAll(0);
        win.rPut(longs(1).put(0, rank), 1, MPI.LONG, right, 0, 1, MPI.LONG).waitFor();
        win.rAccumulate(longs(1).put(0, 5), 1, MPI.LONG, right, 1, 1, MPI.LONG, MPI.SUM).waitFor();
        win.flush(right);
        LongBuffer got = longs(2);
        mpi.Request get = win.rGet(got, 2, MPI.LONG, right, 0, 2, MPI.LONG);
        get.waitFor();
        assertEquals(rank, got.get(0));
        assertEquals(5, got.get(1));
        LongBuffer before = longs(1);
        win.rGetAccumulate(longs(1).put(0, 1), 1, MPI.LONG, before, 1, MPI.LONG, right, 1, 1, MPI.LONG, MPI.SUM)
                .waitFor();
        assertEquals(5, before.get(0));
        win.unlockAll();
        world.barrier();
        assertEquals(6, memory.get(1));
        win.free();
    }

    /**
     * Puts and gets whose predefined types take the direct path on a window in shared memory, at its edges: the
     * window's last int, a buffer's position ignored (data from index 0, as Open MPI's bindings address it), a
     * heap buffer, bytes against ints, three origin buffers in turn (more than the window remembers), a count of
     * 0; and what it must leave to the general path's errors: a read-only buffer to get into, an origin buffer
     * too small for its count.
     */
    private static void putsAndGetsAtTheEdges(Intracomm world, int rank, int size) throws MPIException {
        IntBuffer memory = ints(4);
        Win win = new Win(memory, 4, 4, MPI.INFO_NULL, world);
        win.setErrhandler(MPI.ERRORS_RETURN);
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        IntBuffer[] origins = {ints(2), ints(2), IntBuffer.allocate(2)};
        win.fence(0);
        for (int i = 0; i < 3; i++) {
            origins[i].put(0, 10 * rank + i).position(1); // the position does not move the data
            win.put(origins[i], 1, MPI.INT, right, i, 1, MPI.INT);
        }
        ByteBuffer bytes = bytes(4);
        bytes.putInt(0, 1000 + rank); // native order: the int as the window holds it
        win.put(bytes, 4, MPI.BYTE, right, 3, 1, MPI.INT);
        win.put(origins[0], 0, MPI.INT, right, 4, 0, MPI.INT); // nothing, even at the window's end
        win.fence(0);
        for (int i = 0; i < 3; i++) {
            assertEquals(10 * left + i, memory.get(i), "int " + i + " from rank " + left);
        }
        assertEquals(1000 + left, memory.get(3), "the last int, put as 4 bytes");
        IntBuffer got = ints(4);
        win.get(got, 4, MPI.INT, right, 0, 4, MPI.INT);
        IntBuffer heap = IntBuffer.allocate(1);
        win.get(heap, 1, MPI.INT, right, 3, 1, MPI.INT);
        expect(MPI.ERR_BUFFER, () -> win.get(ints(1).asReadOnlyBuffer(), 1, MPI.INT, right, 0, 1, MPI.INT));
        expect(MPI.ERR_BUFFER, () -> win.put(ints(1), 2, MPI.INT, right, 0, 2, MPI.INT));
        win.fence(0);
        assertEquals(10 * rank + 2, got.get(2), "got from rank " + right);
        assertEquals(1000 + rank, heap.get(0), "got into a heap buffer");
        win.fence(MPI.MODE_NOSUCCEED);
        win.free();
    }

    /**
     * Two hundred fences in a row, each rank putting the round's number to its right neighbour before each: after
     * a fence every rank holds its left neighbour's number of that round (odd rounds use the second int, so the
     * neighbour's next put, which may come as soon as it left the fence, never lands where this rank reads).
     */
    private static void fencesInARow(Intracomm world, int rank, int size) throws MPIException {
        IntBuffer memory = ints(2);
        Win win = new Win(memory, 2, 4, MPI.INFO_NULL, world);
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        IntBuffer out = ints(1);
        win.fence(0);
        for (int round = 1; round <= 200; round++) {
            out.put(0, round * 100 + rank);
            win.put(out, 1, MPI.INT, right, round % 2, 1, MPI.INT);
            win.fence(0);
            assertEquals(round * 100 + left, memory.get(round % 2), "after fence " + round);
        }
        win.fence(MPI.MODE_NOSUCCEED);
        win.free();
    }

    /**
     * Every rank at once, on the same words of rank 0's window: fetch-and-op (lock-free, by the hardware, on a long
     * and a double on their 8-byte boundaries), accumulate and get-accumulate (under the target's lock, word by
     * word) on the same long, compare-and-swap increments (read, then swap until it holds), and fetch-and-op with
     * accumulate on a long off the boundary (both under the lock). Nothing is lost and no old value is seen twice.
     */
    private static void atomicsAgainstEachOther(Intracomm world, int rank, int size) throws MPIException {
        int rounds = 300;
        ByteBuffer memory = bytes(48);
        Win win = new Win(memory, 48, 1, MPI.INFO_NULL, world); // displacements in bytes
        win.setErrhandler(MPI.ERRORS_RETURN);
        LongBuffer one = longs(1).put(0, 1);
        LongBuffer old = longs(1);
        LongBuffer seen = longs(1);
        java.nio.DoubleBuffer oneDouble = bytes(8).asDoubleBuffer().put(0, 1.0);
        java.nio.DoubleBuffer oldDouble = bytes(8).asDoubleBuffer();
        long[] tickets = new long[2 * rounds];
        world.barrier();
        win.lockAll(0);
        for (int i = 0; i < rounds; i++) {
            win.fetchAndOp(one, old, MPI.LONG, 0, 0, MPI.SUM);
            tickets[2 * i] = old.get(0);
            win.accumulate(one, 1, MPI.LONG, 0, 0, 1, MPI.LONG, MPI.SUM);
            win.getAccumulate(one, 1, MPI.LONG, old, 1, MPI.LONG, 0, 0, 1, MPI.LONG, MPI.SUM);
            tickets[2 * i + 1] = old.get(0);
            do { // a compare-and-swap increment: read the word, swap in one more unless another rank got there
                win.fetchAndOp(null, seen, MPI.LONG, 0, 8, MPI.NO_OP);
                win.compareAndSwap(longs(1).put(0, seen.get(0) + 1), seen, old, MPI.LONG, 0, 8);
            } while (old.get(0) != seen.get(0));
            win.fetchAndOp(oneDouble, oldDouble, MPI.DOUBLE, 0, 16, MPI.SUM);
            win.fetchAndOp(longs(1).put(0, rank + 10L * i), old, MPI.LONG, 0, 24, MPI.MAX);
            win.fetchAndOp(one, old, MPI.LONG, 0, 36, MPI.SUM); // off the boundary: under the lock
            win.accumulate(one, 1, MPI.LONG, 0, 36, 1, MPI.LONG, MPI.SUM);
        }
        win.unlockAll();
        long[] all = new long[tickets.length * size];
        world.allGather(tickets, tickets.length, MPI.LONG, all, tickets.length, MPI.LONG);
        world.barrier();
        if (rank == 0) {
            long n = (long) rounds * size;
            assertEquals(3 * n, memory.getLong(0), "fetch-and-ops, accumulates and get-accumulates on one long");
            assertEquals(n, memory.getLong(8), "compare-and-swap increments");
            assertEquals((double) n, memory.getDouble(16), "fetch-and-op sums on a double");
            assertEquals(size - 1 + 10L * (rounds - 1), memory.getLong(24), "fetch-and-op MAX");
            assertEquals(2 * n, memory.getLong(36), "fetch-and-ops and accumulates off the 8-byte boundary");
        }
        java.util.Set<Long> distinct = new java.util.HashSet<>();
        for (long ticket : all) {
            assertTrue(distinct.add(ticket), "old value " + ticket + " seen twice");
        }
        win.free();
    }

    /**
     * As {@link #atomicsAgainstEachOther} for 4-byte words: fetch-and-ops, accumulates, get-accumulates and
     * compare-and-swaps of {@code int}s and {@code float}s from every rank at once, on their boundary and (an int)
     * off it, are atomic against each other; and a fetch-and-op or compare-and-swap of an aligned int or float is
     * the hardware's (no request built: nothing allocated per call, where the accumulate lock's path builds one).
     */
    private static void narrowAtomicsAgainstEachOther(Intracomm world, int rank, int size) throws Exception {
        int rounds = 300;
        ByteBuffer memory = bytes(40);
        Win win = new Win(memory, 40, 1, MPI.INFO_NULL, world); // displacements in bytes
        win.setErrhandler(MPI.ERRORS_RETURN);
        IntBuffer one = ints(1).put(0, 1);
        IntBuffer old = ints(1);
        IntBuffer seen = ints(1);
        java.nio.FloatBuffer oneFloat = bytes(4).asFloatBuffer().put(0, 1f);
        java.nio.FloatBuffer oldFloat = bytes(4).asFloatBuffer();
        java.nio.FloatBuffer seenFloat = bytes(4).asFloatBuffer();
        int[] tickets = new int[2 * rounds];
        world.barrier();
        win.lockAll(0);
        for (int i = 0; i < rounds; i++) {
            win.fetchAndOp(one, old, MPI.INT, 0, 0, MPI.SUM);
            tickets[2 * i] = old.get(0);
            win.accumulate(one, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM);
            win.getAccumulate(one, 1, MPI.INT, old, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM);
            tickets[2 * i + 1] = old.get(0);
            do { // a compare-and-swap increment of an int
                win.fetchAndOp(null, seen, MPI.INT, 0, 4, MPI.NO_OP);
                win.compareAndSwap(ints(1).put(0, seen.get(0) + 1), seen, old, MPI.INT, 0, 4);
            } while (old.get(0) != seen.get(0));
            win.fetchAndOp(oneFloat, oldFloat, MPI.FLOAT, 0, 8, MPI.SUM);
            win.accumulate(oneFloat, 1, MPI.FLOAT, 0, 8, 1, MPI.FLOAT, MPI.SUM);
            win.fetchAndOp(ints(1).put(0, rank + 10 * i), old, MPI.INT, 0, 12, MPI.MAX);
            do { // a compare-and-swap increment of a float
                win.fetchAndOp(null, seenFloat, MPI.FLOAT, 0, 16, MPI.NO_OP);
                win.compareAndSwap(bytes(4).asFloatBuffer().put(0, seenFloat.get(0) + 1), seenFloat, oldFloat,
                        MPI.FLOAT, 0, 16);
            } while (Float.compare(oldFloat.get(0), seenFloat.get(0)) != 0);
            win.fetchAndOp(one, old, MPI.INT, 0, 22, MPI.SUM); // off the boundary: under the lock
            win.accumulate(one, 1, MPI.INT, 0, 22, 1, MPI.INT, MPI.SUM);
        }
        long allocated = org.weft.tests.harness.SteadyStateAllocation.leastBytes(calls -> {
            for (int i = 0; i < calls; i++) {
                win.fetchAndOp(one, old, MPI.INT, rank, 28, MPI.SUM);
                win.fetchAndOp(oneFloat, oldFloat, MPI.FLOAT, rank, 32, MPI.SUM);
                win.compareAndSwap(one, one, old, MPI.INT, rank, 36); // four buffers: the window's views keep four
            }
        }, 20_000, 1000, 10, 1000);
        win.unlockAll();
        assertTrue(allocated < 1000, "rank " + rank + " allocated " + allocated + " bytes in 3000 int and float"
                + " fetch-and-ops and compare-and-swaps");
        int[] all = new int[tickets.length * size];
        world.allGather(tickets, tickets.length, MPI.INT, all, tickets.length, MPI.INT);
        world.barrier();
        if (rank == 0) {
            int n = rounds * size;
            assertEquals(3 * n, memory.getInt(0), "fetch-and-ops, accumulates and get-accumulates on one int");
            assertEquals(n, memory.getInt(4), "compare-and-swap increments of an int");
            assertEquals(2f * n, memory.getFloat(8), "fetch-and-op and accumulate sums on a float");
            assertEquals(size - 1 + 10 * (rounds - 1), memory.getInt(12), "fetch-and-op MAX on an int");
            assertEquals((float) n, memory.getFloat(16), "compare-and-swap increments of a float");
            assertEquals(2 * n, memory.getInt(22), "fetch-and-ops and accumulates off the 4-byte boundary");
        }
        java.util.Set<Integer> distinct = new java.util.HashSet<>();
        for (int ticket : all) {
            assertTrue(distinct.add(ticket), "old value " + ticket + " seen twice");
        }
        win.free();
    }

    private static void errorClasses(Intracomm world, int rank, int size) throws MPIException {
        IntBuffer memory = ints(4);
        Win win = new Win(memory, 4, 4, MPI.INFO_NULL, world);
        win.setErrhandler(MPI.ERRORS_RETURN);
        IntBuffer one = ints(1);
        expect(MPI.ERR_RMA_SYNC, () -> win.put(one, 1, MPI.INT, 0, 0, 1, MPI.INT));
        expect(MPI.ERR_RMA_SYNC, () -> win.unlock(0));
        expect(MPI.ERR_RMA_SYNC, () -> win.flush(0));
        expect(MPI.ERR_LOCKTYPE, () -> win.lock(99, 0, 0));
        win.fence(0);
        expect(MPI.ERR_RMA_RANGE, () -> win.put(one, 1, MPI.INT, 0, 4, 1, MPI.INT));
        expect(MPI.ERR_RMA_RANGE, () -> win.get(one, 1, MPI.INT, 0, -1, 1, MPI.INT));
        expect(MPI.ERR_RANK, () -> win.put(one, 1, MPI.INT, size, 0, 1, MPI.INT));
        expect(MPI.ERR_TYPE, () -> win.put(one, 1, MPI.INT, 0, 0, 1, MPI.LONG));
        expect(MPI.ERR_OP, () -> win.accumulate(one, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.MAXLOC));
        expect(MPI.ERR_OP, () -> win.accumulate(ints(1), 1, MPI.BOOLEAN, 0, 0, 1, MPI.BOOLEAN, MPI.SUM));
        expect(MPI.ERR_RMA_FLAVOR, () -> win.attach(one, 1)); // not a dynamic window
        expect(MPI.ERR_RMA_SYNC, () -> win.complete());
        expect(MPI.ERR_RMA_SYNC, () -> win.waitFor());
        win.put(one, 1, MPI.INT, MPI.PROC_NULL, 0, 1, MPI.INT); // nothing to do
        win.fence(0);
        win.free();
        expect(MPI.ERR_WIN, () -> win.lock(MPI.LOCK_SHARED, 0, 0));
        expect(MPI.ERR_DISP, () -> new Win(ints(1), 1, 0, MPI.INFO_NULL, world));
        expect(MPI.ERR_BUFFER, () -> new Win(IntBuffer.allocate(1), 1, 4, MPI.INFO_NULL, world));
    }

    @FunctionalInterface
    interface Call {
        void run() throws MPIException;
    }

    static void expect(int errorClass, Call call) {
        MPIException e = assertThrows(MPIException.class, call::run);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
    }
}
