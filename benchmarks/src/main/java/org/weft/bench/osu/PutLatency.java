package org.weft.bench.osu;

import mpi.MPIException;

/**
 * {@code osu_put_latency} ({@link OneSidedLatency}). Usage: {@code PutLatency [-m maxBytes] [-i iterations]
 * [-s flush|lock|fence] [--window]}.
 */
public final class PutLatency {
    private PutLatency() {
    }

    public static void main(String[] args) throws MPIException {
        OneSidedLatency.run(args, true);
    }
}
