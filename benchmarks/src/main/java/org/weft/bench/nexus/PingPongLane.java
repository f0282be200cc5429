package org.weft.bench.nexus;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.weft.adi.idle.BackoffIdleStrategy;
import org.weft.adi.idle.IdleStrategy;
import org.weft.mm.RsrHandler;
import org.weft.mm.SendCompletion;
import org.weft.mm.Startpoint;
import org.weft.mm.progress.ProgressEngine;

/**
 * One RSR ping-pong between ranks 0 and 1 over one startpoint, with handler ids of its own so that several lanes
 * run side by side in the same processes (ppmulti). Rank 0 sends PING and waits for PONG; rank 1 waits and
 * answers; a STOP (answered like a PING) ends a lane that runs until told. One thread drives a lane; it waits by
 * polling the whole device (so it also delivers other lanes' RSRs), spinning then yielding, never parking.
 */
final class PingPongLane {
    private final int ping;
    private final ByteBuffer header = ByteBuffer.allocateDirect(Long.BYTES);
    private final LinkWatch linkWatch = new LinkWatch();
    private final IdleStrategy idle = new BackoffIdleStrategy(1_000, Long.MAX_VALUE, 0, 0);
    private volatile long arrived;
    private volatile boolean stopArrived;
    private volatile long roundTrips;
    /** Arrivals the driving thread has consumed (touched by that thread only). */
    private long taken;
    private RsrProcess process;
    private Startpoint peer;

    /** A lane using handler ids {@code firstId} (PING), {@code firstId + 1} (PONG) and {@code firstId + 2} (STOP). */
    PingPongLane(int firstId) {
        this.ping = firstId;
    }

    /** The handlers to register on the endpoint before the process opens. */
    @SuppressWarnings("NonAtomicOperationOnVolatileField") // one lane's RSRs come from one sender, one at a time
    Map<Integer, RsrHandler> handlers() {
        RsrHandler count = (source, body) -> arrived++;
        RsrHandler stop = (source, body) -> {
            stopArrived = true;
            arrived++;
        };
        return Map.of(ping, count, ping + 1, count, ping + 2, stop);
    }

    /** Binds the lane to the opened process and the startpoint its RSRs go through. */
    void bind(RsrProcess opened, Startpoint startpoint) {
        this.process = opened;
        this.peer = startpoint;
    }

    /** The method carrying this lane's RSRs. */
    String method() {
        return peer.link().module().name();
    }

    /** The largest payload one of this lane's RSRs can carry by its method (the header takes the rest). */
    long maxPayload() {
        return peer.link().module().maxRsrLength() - header.capacity();
    }

    /** Round trips completed so far by {@link #runUntil} on rank 0 (read by other threads). */
    long roundTrips() {
        return roundTrips;
    }

    /** Microseconds per one-way RSR of {@code payload}, over {@code iterations} round trips (both ranks call). */
    double oneWayMicros(MemorySegment payload, int iterations) {
        return oneWayMicros(payload, iterations, null);
    }

    /**
     * As {@link #oneWayMicros(MemorySegment, int)}; rank 0 also puts each round trip's nanoseconds in
     * {@code roundTripNanos} (at least {@code iterations} long, or null), whose median a loaded machine's stalls do
     * not move as they move the mean.
     */
    double oneWayMicros(MemorySegment payload, int iterations, long[] roundTripNanos) {
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            if (process.rank() == 0) {
                long sent = System.nanoTime();
                send(ping, payload, i);
                awaitArrival();
                if (roundTripNanos != null) {
                    roundTripNanos[i] = System.nanoTime() - sent;
                }
            } else {
                awaitArrival();
                send(ping + 1, payload, i);
            }
        }
        return (System.nanoTime() - start) / 1e3 / iterations / 2;
    }

    /**
     * Ping-pongs {@code payload} until rank 0's {@code stop} says so; rank 0 then sends a STOP, which rank 1
     * answers before it returns too.
     */
    @SuppressWarnings("NonAtomicOperationOnVolatileField") // written by this thread only
    void runUntil(BooleanSupplier stop, MemorySegment payload) {
        long i = 0;
        if (process.rank() == 0) {
            while (!stop.getAsBoolean()) {
                send(ping, payload, i++);
                awaitArrival();
                roundTrips++;
            }
            send(ping + 2, payload, i);
            awaitArrival();
        } else {
            do {
                awaitArrival();
                send(ping + 1, payload, i++);
            } while (!stopArrived);
        }
    }

    private void send(int handler, MemorySegment payload, long sequence) {
        header.clear();
        header.putLong(0, sequence);
        peer.send(handler, header, payload, linkWatch);
    }

    private void awaitArrival() {
        long expected = taken + 1;
        // First poll without the idle strategy's pause instruction, as the device's own waits do: a pause delays
        // seeing the arrival (pphandle measured 0.19-0.43 us one-way with it, where MPI's latency took 0.15).
        for (int pass = 0; pass < ProgressEngine.PASSES_BEFORE_IDLING && arrived < expected; pass++) {
            process.poll();
        }
        idle.reset();
        while (arrived < expected) {
            if (linkWatch.failure != null) {
                throw new IllegalStateException("the " + method() + " link to rank " + peer.rank() + " failed: "
                        + linkWatch.failure);
            }
            idle.idle(process.poll());
        }
        taken = expected;
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
}
