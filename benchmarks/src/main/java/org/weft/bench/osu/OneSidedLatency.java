package org.weft.bench.osu;

import java.nio.ByteBuffer;

import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * {@code osu_put_latency} and {@code osu_get_latency}: rank 0 puts to (or gets from) rank 1's window, which waits
 * in a barrier; the latency is the time of one operation with its synchronisation ({@code -s}): {@code flush}
 * (one lock for the run, a put and a flush per iteration: OSU's default), {@code lock} (lock, put, unlock per
 * iteration) or {@code fence} (put then fence, both ranks). Run as {@link PutLatency} or {@link GetLatency}.
 */
public final class OneSidedLatency {
    private static final OsuRun.Schedule SCHEDULE = new OsuRun.Schedule(10_000, 50, 100);
    /**
     * Operations run before the schedule's warm-up, so that the rows time the compiled loop: at 10-100 ns an
     * operation, the schedule's ~100 000 before the 8-byte row leave the JIT mid-way on a loaded 2-core machine
     * (the loop, its OSR and the calls it inlines reach C2 after 0.3-1 million; per 100 000, a get + flush ran 110,
     * 75, then 22-24, then 11 ns in one job, where Open MPI's C twin, with no JIT, is at its figure from the first).
     * At most {@link #STEADY_NANOS} of them, as rank 0 decides (a fence's barrier needs both ranks to run as many).
     */
    private static final int STEADY_WARMUP = 1_000_000;
    private static final int STEADY_BATCH = 50_000;
    private static final long STEADY_NANOS = 2_000_000_000L;
    /** The size of the steady warm-up's operations (or the largest size, if smaller). */
    private static final int STEADY_BYTES = 8;

    private final OsuRun run;
    private final boolean put;
    private final Win win;
    private final ByteBuffer local;

    private OneSidedLatency(OsuRun run, boolean put, int maxBytes) throws MPIException {
        this.run = run;
        this.put = put;
        this.local = (ByteBuffer) run.sendBuffer;
        this.win = new Win(MPI.newByteBuffer(maxBytes), maxBytes, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
    }

    /** Runs the put ({@code put}) or get benchmark with OSU's options in {@code args}. */
    static void run(String[] args, boolean put) throws MPIException {
        OsuRun run = OsuRun.init(args, SCHEDULE, 1);
        int max = ((ByteBuffer) run.sendBuffer).capacity();
        OneSidedLatency bench = new OneSidedLatency(run, put, max);
        bench.warmUntilCompiled(Math.min(max, STEADY_BYTES));
        run.measureAllSizes((put ? "put" : "get") + " latency (" + run.sync + ")", "Latency (us)", bench::micros);
    }

    /** Runs {@link #STEADY_WARMUP} untimed operations of {@code size} bytes, or as many as fit {@link #STEADY_NANOS}. */
    private void warmUntilCompiled(int size) throws MPIException {
        long deadline = System.nanoTime() + STEADY_NANOS;
        int[] more = {1};
        for (int done = 0; done < STEADY_WARMUP && more[0] != 0; done += STEADY_BATCH) {
            micros(size, STEADY_BATCH, 0);
            more[0] = System.nanoTime() < deadline ? 1 : 0;
            MPI.COMM_WORLD.bcast(more, 1, MPI.INT, 0);
        }
    }

    private double micros(int size, int iterations, int warmup) throws MPIException {
        boolean flush = run.sync.equals("flush");
        if (flush && run.rank == 0) {
            win.lock(MPI.LOCK_SHARED, 1, 0);
        }
        if (run.sync.equals("fence")) {
            win.fence(0);
        }
        double seconds = 0;
        if (run.rank == 0 || run.sync.equals("fence")) {
            seconds = OsuRun.seconds(iterations, warmup, () -> step(size));
        } else {
            MPI.COMM_WORLD.barrier(); // OsuRun.seconds' barrier that starts rank 0's clock
        }
        if (flush && run.rank == 0) {
            win.unlock(1);
        }
        if (run.sync.equals("fence")) {
            win.fence(MPI.MODE_NOSUCCEED);
        }
        MPI.COMM_WORLD.barrier(); // rank 1 has waited here (its window served by its service thread)
        return seconds / iterations * 1e6;
    }

    private void step(int size) throws MPIException {
        boolean lock = run.sync.equals("lock");
        if (run.rank == 0) {
            if (lock) {
                win.lock(MPI.LOCK_SHARED, 1, 0);
            }
            if (put) {
                win.put(local, size, MPI.BYTE, 1, 0, size, MPI.BYTE);
            } else {
                win.get(local, size, MPI.BYTE, 1, 0, size, MPI.BYTE);
            }
            if (lock) {
                win.unlock(1);
            } else if (run.sync.equals("flush")) {
                win.flush(1);
            }
        }
        if (run.sync.equals("fence")) {
            win.fence(0);
        }
    }
}
