package org.weft.tests.programs;

import java.nio.LongBuffer;

import mpi.MPI;
import mpi.Win;
import org.weft.tests.harness.SteadyStateAllocation;

/**
 * Two ranks call one-sided operations on a window in shared memory (over {@code MPI.newByteBuffer}) over and over,
 * as an application's inner loop does, and print what their threads allocate in steady state
 * ({@link SteadyStateAllocation#print}, the best window; a "message" is one loop step). The argument says which:
 * {@code flush} (rank 0 puts to rank 1 and gets it back, flushing after each, under one lock), {@code lock}
 * (rank 0 locks rank 1, puts and unlocks, each step) or {@code fence} (both put their step number to the other,
 * then fence). Every value is checked: a fence that let a rank through early shows as a stale number.
 */
public final class RepeatedOneSided {
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 20_000;
    private static final int WINDOWS = 30;

    private RepeatedOneSided() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int other = 1 - rank;
        String call = args[0];
        LongBuffer memory = MPI.newByteBuffer(16).asLongBuffer();
        Win win = new Win(memory, 2, 8, MPI.INFO_NULL, MPI.COMM_WORLD);
        LongBuffer out = MPI.newByteBuffer(8).asLongBuffer();
        LongBuffer in = MPI.newByteBuffer(8).asLongBuffer();
        long[] step = {0};
        if (call.equals("fence")) {
            win.fence(0);
        } else if (call.equals("flush") && rank == 0) {
            win.lock(MPI.LOCK_SHARED, other, 0);
        }
        long bytes = SteadyStateAllocation.leastBytes(rounds -> {
            for (int i = 0; i < rounds; i++) {
                long value = ++step[0];
                switch (call) {
                    case "flush" -> flush(win, rank, other, out, in, value);
                    case "lock" -> lock(win, rank, other, out, value);
                    default -> fence(win, other, out, memory, value);
                }
            }
            if (call.equals("lock")) { // rank 1 checks what rank 0 put last
                MPI.COMM_WORLD.barrier();
                win.sync();
                if (rank == 1 && memory.get(0) != step[0]) {
                    throw new AssertionError("rank 1 holds " + memory.get(0) + " after put " + step[0]);
                }
                MPI.COMM_WORLD.barrier();
            }
        }, WARM_UP, MEASURED, WINDOWS, MEASURED);
        if (call.equals("fence")) {
            win.fence(MPI.MODE_NOSUCCEED);
        } else if (call.equals("flush") && rank == 0) {
            win.unlock(other);
        }
        SteadyStateAllocation.print(rank, bytes, MEASURED);
        win.free();
        MPI.Finalize();
    }

    private static void flush(Win win, int rank, int other, LongBuffer out, LongBuffer in, long value)
            throws Exception {
        if (rank != 0) {
            return;
        }
        out.put(0, value);
        win.put(out, 1, MPI.LONG, other, 0, 1, MPI.LONG);
        win.flush(other);
        win.get(in, 1, MPI.LONG, other, 0, 1, MPI.LONG);
        win.flush(other);
        if (in.get(0) != value) {
            throw new AssertionError("got " + in.get(0) + " back after putting " + value);
        }
    }

    private static void lock(Win win, int rank, int other, LongBuffer out, long value) throws Exception {
        if (rank == 0) {
            out.put(0, value);
            win.lock(MPI.LOCK_EXCLUSIVE, other, 0);
            win.put(out, 1, MPI.LONG, other, 0, 1, MPI.LONG);
            win.unlock(other);
        }
    }

    /**
     * Odd steps use the window's second long, even ones its first: the other rank's next put, which may come as
     * soon as it left this fence, goes to the long this rank is not reading.
     */
    private static void fence(Win win, int other, LongBuffer out, LongBuffer memory, long value) throws Exception {
        int slot = (int) (value % 2);
        out.put(0, value);
        win.put(out, 1, MPI.LONG, other, slot, 1, MPI.LONG);
        win.fence(0);
        if (memory.get(slot) != value) {
            throw new AssertionError("after fence " + value + " the window holds " + memory.get(slot));
        }
    }
}
