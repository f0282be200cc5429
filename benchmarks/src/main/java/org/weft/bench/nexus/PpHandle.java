package org.weft.bench.nexus;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Map;
import org.weft.adi.idle.BackoffIdleStrategy;
import org.weft.adi.idle.IdleStrategy;
import org.weft.mm.RsrHandler;
import org.weft.mm.SendCompletion;
import org.weft.mm.Startpoint;

/**
 * {@code pphandle} (the Nexus papers' benchmark): a ping-pong of raw remote service requests between ranks 0 and
 * 1, below MPI — no matching, no protocol, just a startpoint's RSR to a handler that counts it. Rank 0 sends
 * PING and waits for PONG; rank 1 waits for PING and sends PONG; one-way latency is half the round trip.
 * Usage: {@code PpHandle [-m maxBytes] [-i iterations]} under {@code weftrun -np 2}
 * ({@code --param methods=tcp} picks the method).
 *
 * <p>Waiting spins, then yields, and never parks: it measures the RSR path, not the cost of a thread wake-up.
 */
public final class PpHandle {
    private static final int PING = 1;
    private static final int PONG = 2;
    private static final int LARGE = 64 * 1024;

    private final RsrProcess process;
    private final Arrivals arrivals;
    private final Startpoint peer;
    private final int replyHandler;
    private final ByteBuffer header = ByteBuffer.allocateDirect(Long.BYTES);
    private final LinkWatch linkWatch = new LinkWatch();
    private final IdleStrategy idle = new BackoffIdleStrategy(1_000, Long.MAX_VALUE, 0, 0);

    private PpHandle(RsrProcess process, Arrivals arrivals) {
        this.process = process;
        this.arrivals = arrivals;
        this.peer = process.startpoint(1 - process.rank());
        this.replyHandler = process.rank() == 0 ? PING : PONG;
    }

    public static void main(String[] args) throws IOException {
        int maxBytes = 1 << 20;
        int iterations = 10_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-m" -> maxBytes = Integer.parseInt(args[++i]);
                case "-i" -> iterations = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (options: -m maxBytes, -i iterations)");
            }
        }
        Arrivals arrivals = new Arrivals();
        try (RsrProcess process = RsrProcess.open(Map.of(PING, arrivals, PONG, arrivals));
             Arena arena = Arena.ofConfined()) {
            if (process.size() != 2) {
                throw new IllegalStateException("pphandle needs exactly 2 ranks, not " + process.size());
            }
            MemorySegment payload = arena.allocate(Math.max(maxBytes, 1), 64);
            new PpHandle(process, arrivals).run(payload, maxBytes, iterations);
        }
    }

    private void run(MemorySegment payload, int maxBytes, int iterations) throws IOException {
        boolean printing = process.rank() == 0;
        if (printing) {
            System.out.printf("# Weft pphandle: RSR ping-pong below MPI, method %s%n", peer.link().module().name());
            System.out.printf("# %-10s %15s%n", "Size", "Latency (us)");
        }
        // Unprinted warm-up, as the OSU benchmarks: the JIT compiles every size's path before timing.
        oneWayMicros(payload.asSlice(0, 0), 4 * iterations);
        for (int size = 0; size <= maxBytes; size = size == 0 ? 1 : size * 2) {
            oneWayMicros(payload.asSlice(0, size), 100);
        }
        for (int size = 0; size <= maxBytes; size = size == 0 ? 1 : size * 2) {
            int iters = size < LARGE ? iterations : Math.max(iterations / 50, 100);
            double micros = oneWayMicros(payload.asSlice(0, size), iters);
            if (printing) {
                System.out.printf("%-12d %15.2f%n", size, micros);
            }
        }
    }

    /** Microseconds per one-way RSR of {@code payload}, over {@code iterations} round trips. */
    private double oneWayMicros(MemorySegment payload, int iterations) throws IOException {
        process.barrier();
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            if (process.rank() == 0) {
                send(payload, i);
                awaitArrival();
            } else {
                awaitArrival();
                send(payload, i);
            }
        }
        return (System.nanoTime() - start) / 1e3 / iterations / 2;
    }

    /** Sends one RSR; a back-pressured one waits in the startpoint's queue, which {@link RsrProcess#poll} drains. */
    private void send(MemorySegment payload, long sequence) {
        header.clear();
        header.putLong(0, sequence);
        peer.send(replyHandler, header, payload, linkWatch);
    }

    private void awaitArrival() {
        long expected = arrivals.taken + 1;
        idle.reset();
        while (arrivals.count < expected) {
            if (linkWatch.failure != null) {
                throw new IllegalStateException("the link to rank " + peer.rank() + " failed: " + linkWatch.failure);
            }
            idle.idle(process.poll());
        }
        arrivals.taken = expected;
    }

    /** Hears about every send: nothing to do when one went; a failed link ends the benchmark. */
    private static final class LinkWatch implements SendCompletion {
        private volatile String failure;

        @Override
        public void sent() {
        }

        @Override
        public void failed(String why) {
            failure = why;
        }
    }

    /** The handler of PING and PONG: counts arrivals (one sender, delivered one at a time). */
    private static final class Arrivals implements RsrHandler {
        private volatile long count;
        /** Arrivals the waiting thread has consumed (touched by that thread only). */
        private long taken;

        @Override
        @SuppressWarnings("NonAtomicOperationOnVolatileField") // one writer: RSRs of one sender arrive one at a time
        public void handle(int sourceRank, ByteBuffer body) {
            count++;
        }
    }
}
