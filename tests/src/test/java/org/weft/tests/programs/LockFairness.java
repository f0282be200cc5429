package org.weft.tests.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.concurrent.TimeUnit;

import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Win;

/**
 * A stream of shared lockers must not starve an exclusive one. On rank 0's window ({@code args[0]}: "shared" for
 * memory from {@code MPI.newByteBuffer}, the direct path, else an {@code allocateDirect} buffer, the message path)
 * ranks 0 to size-2 take shared locks in a loop — the second with {@code lockAll} — and each holds its lock until
 * another has taken one after it (or {@link #HOLD_MILLIS} passed), so that without a queue some shared lock is
 * always held. The last rank then asks for an exclusive lock and prints {@code exclusive after N ms} and how many
 * shared locks were granted since just before it asked (in arrival order, only those already asked for: at most
 * one a locker, plus the few of the moment between its look at the count and its request); holding it, it checks
 * that no shared holder is inside and raises the stop flag. A shared locker that never sees the flag
 * gives up after {@code args[1]} ms ({@code rank R gave up}), so a starving lock fails the test instead of hanging.
 *
 * <p>Window words: 0 the stop flag, 1 shared grants so far, 2 shared holders inside.
 */
public final class LockFairness {
    /** How long a shared holder waits for another shared grant before it lets go. */
    private static final long HOLD_MILLIS = 20;
    private static final int FLAG = 0;
    private static final int GRANTS = 1;
    private static final int INSIDE = 2;

    private LockFairness() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        boolean shared = args[0].equals("shared");
        long giveUpMillis = Long.parseLong(args[1]);
        ByteBuffer bytes = shared ? MPI.newByteBuffer(24)
                : ByteBuffer.allocateDirect(24).order(ByteOrder.nativeOrder());
        Win win = new Win(bytes, 24, 8, MPI.INFO_NULL, MPI.COMM_WORLD);
        Words words = new Words(win);
        MPI.COMM_WORLD.barrier();
        if (rank == size - 1) {
            Thread.sleep(300); // the shared lockers are well into their stream
            win.lock(MPI.LOCK_SHARED, 0, 0);
            long before = words.read(GRANTS);
            win.unlock(0);
            long start = System.nanoTime();
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            long inside = words.read(INSIDE);
            long grants = words.read(GRANTS);
            words.add(FLAG, 1);
            win.unlock(0);
            System.out.println("exclusive after " + waited + " ms, " + grants + " shared grants, "
                    + (grants - before) + " while it waited, inside " + inside);
        } else {
            sharedStream(win, words, rank == 1, rank, giveUpMillis);
        }
        MPI.COMM_WORLD.barrier();
        win.free();
        MPI.Finalize();
    }

    private static void sharedStream(Win win, Words words, boolean all, int rank, long giveUpMillis)
            throws MPIException {
        long giveUp = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(giveUpMillis);
        while (true) {
            if (all) {
                win.lockAll(0);
            } else {
                win.lock(MPI.LOCK_SHARED, 0, 0);
            }
            words.add(INSIDE, 1);
            long mine = words.add(GRANTS, 1);
            boolean stop = words.read(FLAG) != 0;
            boolean late = System.nanoTime() > giveUp;
            long holdUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(HOLD_MILLIS);
            while (!stop && !late && System.nanoTime() < holdUntil && words.read(GRANTS) <= mine + 1) {
                Thread.yield();
            }
            words.add(INSIDE, -1);
            if (all) {
                win.unlockAll();
            } else {
                win.unlock(0);
            }
            if (stop || late) {
                System.out.println("rank " + rank + (stop ? " saw the flag" : " gave up"));
                return;
            }
        }
    }

    /** Atomic reads and adds of rank 0's words (within an epoch), through fetch-and-op and a flush. */
    private static final class Words {
        private final Win win;
        private final LongBuffer operand = MPI.newByteBuffer(8).asLongBuffer();
        private final LongBuffer result = MPI.newByteBuffer(8).asLongBuffer();

        Words(Win win) {
            this.win = win;
        }

        long read(int word) throws MPIException {
            return op(word, 0, MPI.NO_OP);
        }

        /** Adds {@code delta}; returns the word before. */
        long add(int word, long delta) throws MPIException {
            return op(word, delta, MPI.SUM);
        }

        private long op(int word, long value, Op op) throws MPIException {
            operand.put(0, value);
            win.fetchAndOp(operand, result, MPI.LONG, 0, word, op);
            win.flush(0);
            return result.get(0);
        }
    }
}
