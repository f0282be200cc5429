package org.weft.bench.osu;

import mpi.MPIException;

/**
 * {@code osu_get_latency} ({@link OneSidedLatency}). Usage: {@code GetLatency [-m maxBytes] [-i iterations]
 * [-s flush|lock|fence] [--window]}.
 */
public final class GetLatency {
    private GetLatency() {
    }

    public static void main(String[] args) throws MPIException {
        OneSidedLatency.run(args, false);
    }
}
