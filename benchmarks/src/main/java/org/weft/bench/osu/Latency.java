package org.weft.bench.osu;

import mpi.MPI;
import mpi.MPIException;

/**
 * {@code osu_latency}: ping-pong between ranks 0 and 1; one-way latency is half the round trip, averaged over
 * many iterations after a warm-up. Usage: {@code Latency [-m maxBytes] [-i iterations] [--heap]} — {@code --heap}
 * sends from {@code byte[]} instead of a direct buffer.
 */
public final class Latency {
    private static final OsuRun.Schedule SCHEDULE = new OsuRun.Schedule(10_000, 50, 100);
    private static final int TAG = 1;

    private final OsuRun run;

    private Latency(OsuRun run) {
        this.run = run;
    }

    public static void main(String[] args) throws MPIException {
        OsuRun run = OsuRun.init(args, SCHEDULE, 0);
        run.measureAllSizes("latency", "Latency (us)", new Latency(run)::oneWayMicros);
    }

    /** Microseconds for one one-way message of {@code size} bytes: half a round trip. */
    private double oneWayMicros(int size, int iterations, int warmup) throws MPIException {
        return OsuRun.seconds(iterations, warmup, () -> roundTrip(size)) / iterations / 2 * 1e6;
    }

    private void roundTrip(int size) throws MPIException {
        if (run.rank == 0) {
            MPI.COMM_WORLD.send(run.sendBuffer, size, MPI.BYTE, run.peer, TAG);
            MPI.COMM_WORLD.recv(run.recvBuffer, size, MPI.BYTE, run.peer, TAG);
        } else {
            MPI.COMM_WORLD.recv(run.recvBuffer, size, MPI.BYTE, run.peer, TAG);
            MPI.COMM_WORLD.send(run.sendBuffer, size, MPI.BYTE, run.peer, TAG);
        }
    }
}
