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
        run.measureAllSizes((put ? "put" : "get") + " latency (" + run.sync + ")", "Latency (us)", bench::micros);
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
