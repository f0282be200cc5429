package org.weft.tests.programs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * Passive-target one-sided communication while the target does not call MPI: rank 0 exposes a window of longs and
 * then makes no MPI call until every other rank has left a file {@code origin-R-done} in directory {@code args[1]},
 * or for {@code args[0]} milliseconds at most; every other rank locks rank 0's window, puts, accumulates and reads
 * back, unlocks, and prints how long that took and whether rank 0 was still away from MPI (it leaves a file
 * {@code target-woke} when it comes back). Timed by these files, not by a sleep that a loaded machine's origins may
 * outlast. Afterwards rank 0 prints what its window holds. With argument {@code fatal} instead, rank 1 puts outside
 * any epoch under the window's default handler (ERRORS_ARE_FATAL). With a third argument {@code shared}, the
 * window's memory comes from {@code MPI.newByteBuffer} (on one host, a window in shared memory), and rank 0 prints
 * how many window service threads it runs.
 */
public final class PassiveTarget {
    private PassiveTarget() {
    }

    public static void main(String[] args) throws MPIException, InterruptedException, IOException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        boolean shared = args.length > 2 && args[2].equals("shared");
        LongBuffer memory = (shared ? MPI.newByteBuffer(8 * 2)
                : ByteBuffer.allocateDirect(8 * 2).order(ByteOrder.nativeOrder())).asLongBuffer();
        Win win = new Win(memory, 2, 8, MPI.INFO_NULL, MPI.COMM_WORLD);
        if (rank == 0 && shared) {
            System.out.println("service threads " + Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("weft-window-")).count());
        }
        if (args[0].equals("fatal")) {
            if (rank == 1) {
                win.put(memory, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
                System.out.println("SURVIVED");
            }
            MPI.COMM_WORLD.barrier();
            MPI.Finalize();
            return;
        }
        long sleep = Long.parseLong(args[0]);
        Path dir = Path.of(args[1]);
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            awayFromMpi(dir, size - 1, sleep); // no MPI call while the origins work on this window
            MPI.COMM_WORLD.barrier();
            System.out.println("target holds " + memory.get(0) + " " + memory.get(1));
        } else {
            long start = System.nanoTime();
            LongBuffer value = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).asLongBuffer();
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            value.put(0, 1000 + rank);
            win.put(value, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            win.get(value, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            win.unlock(0);
            LongBuffer one = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).asLongBuffer().put(0, 1);
            win.lock(MPI.LOCK_SHARED, 0, 0);
            win.accumulate(one, 1, MPI.LONG, 0, 1, 1, MPI.LONG, MPI.SUM);
            win.unlock(0);
            long millis = (System.nanoTime() - start) / 1_000_000;
            boolean targetAway = !Files.exists(dir.resolve("target-woke"));
            System.out.println("origin " + rank + " read " + value.get(0) + " and finished in " + millis + " ms"
                    + (targetAway ? " while the target slept" : " AFTER the target woke"));
            Files.createFile(dir.resolve("origin-" + rank + "-done"));
            MPI.COMM_WORLD.barrier();
        }
        win.free();
        MPI.Finalize();
        if (rank == 0) {
            System.out.println("size " + size);
        }
    }

    /** No MPI call until {@code origins} files {@code origin-R-done} are in {@code dir}, or for {@code millis}. */
    private static void awayFromMpi(Path dir, int origins, long millis) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < deadline && countDone(dir) < origins) {
            Thread.sleep(20);
        }
        Files.createFile(dir.resolve("target-woke"));
    }

    private static long countDone(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith("-done")).count();
        }
    }
}
