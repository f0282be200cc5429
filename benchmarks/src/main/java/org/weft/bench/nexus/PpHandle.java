package org.weft.bench.nexus;

import org.weft.bench.Results;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.weft.bench.SizeAndIterations;

/**
 * {@code pphandle} (the Nexus papers' benchmark): RSR ping-pong between ranks 0 and 1, below MPI — no matching, no
 * protocol, just a startpoint's RSR to a handler that counts it — over the method the selection policy picks for
 * the pair (choose it with {@code --param methods=...}). Prints one-way microseconds per size, OSU-style.
 * Usage: {@code weft bench pphandle [-m maxBytes] [-i iterations]}.
 */
public final class PpHandle {
    private static final int LANE = 1;
    private static final int LARGE = 64 * 1024;

    private PpHandle() {
    }

    public static void main(String[] args) throws IOException {
        SizeAndIterations options = SizeAndIterations.parse(args, 1 << 20, 10_000);
        int maxBytes = options.maxBytes();
        int iterations = options.iterations();
        PingPongLane lane = new PingPongLane(LANE);
        try (RsrProcess process = RsrProcess.open(lane.handlers());
             Arena arena = Arena.ofConfined()) {
            if (process.size() != 2) {
                throw new IllegalStateException("pphandle needs exactly 2 ranks, not " + process.size());
            }
            lane.bind(process, process.startpoint(1 - process.rank()));
            int largest = (int) Math.min(maxBytes, lane.maxPayload());
            if (largest < maxBytes && process.rank() == 0) {
                System.out.printf("# sizes above %d bytes skipped: one RSR of method %s carries no more%n", largest,
                        lane.method());
            }
            run(process, lane, arena.allocate(Math.max(largest, 1), 64), largest, iterations);
        } catch (RuntimeException e) {
            RsrProcess.halt(e);
        }
    }

    private static void run(RsrProcess process, PingPongLane lane, MemorySegment payload, int maxBytes,
                            int iterations) throws IOException {
        boolean printing = process.rank() == 0;
        Results results = null;
        if (printing) {
            System.out.printf("# Weft pphandle: RSR ping-pong below MPI, method %s%n", lane.method());
            System.out.printf("# %-10s %15s%n", "Size", "Latency (us)");
            results = Results.table("pphandle: RSR ping-pong below MPI", "Size (bytes)", "Latency (us)")
                    .expect(Results.sizes(0, maxBytes)).note("method", lane.method());
        }
        // Unprinted warm-up, as the OSU benchmarks: the JIT compiles every size's path before timing.
        lane.oneWayMicros(payload.asSlice(0, 0), 4 * iterations);
        for (int size = 0; size <= maxBytes; size = size == 0 ? 1 : size * 2) {
            lane.oneWayMicros(payload.asSlice(0, size), 100);
        }
        for (int size = 0; size <= maxBytes; size = size == 0 ? 1 : size * 2) {
            int iters = size < LARGE ? iterations : Math.max(iterations / 50, 100);
            process.barrier();
            double micros = lane.oneWayMicros(payload.asSlice(0, size), iters);
            if (printing) {
                System.out.printf("%-12d %15.2f%n", size, micros);
                results.row(size, micros);
            }
        }
    }
}
