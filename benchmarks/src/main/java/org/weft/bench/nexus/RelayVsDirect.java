package org.weft.bench.nexus;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.weft.adi.idle.BackoffIdleStrategy;
import org.weft.adi.idle.IdleStrategy;
import org.weft.bench.Results;
import org.weft.mm.RsrHandler;
import org.weft.mm.SendCompletion;
import org.weft.mm.Startpoint;

/**
 * {@code relay}: the same pair of ranks reached directly (tcp) and through relays, measured in the same run, round
 * by round interleaved so that the machine's load falls on both alike: the one-way latency of a 0-byte RSR
 * (ping-pong) and the throughput of a stream of large RSRs (rank 0 sends {@code count} of {@code size} bytes, rank 1
 * answers once it has them all). Below MPI, as pphandle: the relay's cost, not the protocol's. Prints per round and
 * the medians, and the relay's cost against direct: microseconds added, and throughput as a share of direct. Each
 * round also gives the median of its single round trips, halved: on a loaded machine a few stalls of milliseconds
 * (a rank or the relay waiting for a core) make the mean, while the median shows what one forward costs.
 *
 * <p>Run it as a job of two sites with a relay (both methods must start: name them):
 * {@code weftrun --site a:1 --site b:1 --relay b --methods self,tcp,relay -cp BENCH_JAR
 * org.weft.bench.nexus.RelayVsDirect [-r rounds] [-i iterations] [-s size] [-c count]} ({@code weft bench relay}
 * does that on this host); across an emulated wide area give the sites' hosts and {@code --relay b=GATEWAY}.
 */
public final class RelayVsDirect {
    private static final int DIRECT_LANE = 1;
    private static final int RELAY_LANE = 4;
    private static final int BULK = 7;
    private static final int BULK_ACK = 8;
    private static final int HELLO = 9;

    private final RsrProcess process;
    private final IdleStrategy idle = new BackoffIdleStrategy(1_000, Long.MAX_VALUE, 0, 0);
    /** RSRs arrived per handler id (BULK, BULK_ACK, HELLO), counted by the polling thread. */
    private final long[] arrivals;

    private RelayVsDirect(RsrProcess process, long[] arrivals) {
        this.process = process;
        this.arrivals = arrivals;
    }

    public static void main(String[] args) throws IOException {
        Options options = Options.parse(args);
        PingPongLane directLane = new PingPongLane(DIRECT_LANE);
        PingPongLane relayLane = new PingPongLane(RELAY_LANE);
        long[] arrivals = new long[HELLO + 1];
        Map<Integer, RsrHandler> handlers = new HashMap<>(directLane.handlers());
        handlers.putAll(relayLane.handlers());
        for (int id : new int[] {BULK, BULK_ACK, HELLO}) {
            handlers.put(id, (source, body) -> arrivals[id]++);
        }
        try (RsrProcess process = RsrProcess.open(handlers); Arena arena = Arena.ofConfined()) {
            if (process.size() != 2) {
                throw new IllegalStateException("relay needs exactly 2 ranks, not " + process.size());
            }
            new RelayVsDirect(process, arrivals).run(directLane, relayLane, options,
                    arena.allocate(options.size(), 64));
        } catch (RuntimeException e) {
            RsrProcess.halt(e);
        }
    }

    private void run(PingPongLane directLane, PingPongLane relayLane, Options options, MemorySegment bulk)
            throws IOException {
        int peer = 1 - process.rank();
        Startpoint tcp = process.startpointVia(peer, "tcp");
        directLane.bind(process, tcp);
        Startpoint relay;
        if (process.rank() == 0) {
            relay = process.startpointVia(peer, "relay");
            send(relay, HELLO, MemorySegment.NULL);
        } else {
            // A rank of a site without relay is reached only on the connection it made: answer after it came.
            await(HELLO, 1);
            relay = process.startpointVia(peer, "relay");
        }
        relayLane.bind(process, relay);
        boolean printing = process.rank() == 0;
        if (printing) {
            System.out.printf("# Weft relay: direct (%s) against relayed (%s), %d rounds; throughput of %d RSRs of %d"
                    + " bytes%n", directLane.method(), relayLane.method(), options.rounds(), options.count(),
                    options.size());
            System.out.printf("# %-6s %14s %14s %16s %16s %12s %12s%n", "round", "direct us", "relay us",
                    "direct MB/s", "relay MB/s", "direct p50", "relay p50");
        }
        Results results = printing ? Results.table("relay", "Round", "Direct one-way (us)", "Relayed one-way (us)",
                "Direct (MB/s)", "Relayed (MB/s)", "Direct median one-way (us)", "Relayed median one-way (us)")
                .expect(options.rounds()) : null;
        directLane.oneWayMicros(MemorySegment.NULL, options.iterations()); // warm-up
        relayLane.oneWayMicros(MemorySegment.NULL, options.iterations());
        double[][] figures = new double[6][options.rounds()];
        long[] roundTrips = new long[options.iterations()];
        for (int round = 0; round < options.rounds(); round++) {
            process.barrier();
            figures[0][round] = directLane.oneWayMicros(MemorySegment.NULL, options.iterations(), roundTrips);
            figures[4][round] = medianOneWayMicros(roundTrips);
            figures[1][round] = relayLane.oneWayMicros(MemorySegment.NULL, options.iterations(), roundTrips);
            figures[5][round] = medianOneWayMicros(roundTrips);
            figures[2][round] = megabytesPerSecond(tcp, bulk, options.count());
            figures[3][round] = megabytesPerSecond(relay, bulk, options.count());
            if (printing) {
                System.out.printf("%-8d %14.2f %14.2f %16.1f %16.1f %12.2f %12.2f%n", round, figures[0][round],
                        figures[1][round], figures[2][round], figures[3][round], figures[4][round],
                        figures[5][round]);
                results.row(round, figures[0][round], figures[1][round], figures[2][round], figures[3][round],
                        figures[4][round], figures[5][round]);
            }
        }
        if (printing) {
            double[] medians = new double[figures.length];
            Arrays.setAll(medians, column -> median(figures[column]));
            System.out.printf("median   %14.2f %14.2f %16.1f %16.1f %12.2f %12.2f%n", medians[0], medians[1],
                    medians[2], medians[3], medians[4], medians[5]);
            System.out.printf("# the relay adds %.2f us to a 0-byte one-way (%.2f us to the median single one-way);"
                    + " relayed throughput is %.0f %% of direct%n", medians[1] - medians[0], medians[5] - medians[4],
                    100 * medians[3] / medians[2]);
        }
    }

    /** Half the median of {@code roundTripNanos}, in microseconds (on rank 0; rank 1 has no samples: 0). */
    private double medianOneWayMicros(long[] roundTripNanos) {
        if (process.rank() != 0) {
            return 0;
        }
        long[] sorted = roundTripNanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 2e3;
    }

    /** Rank 0 streams {@code count} RSRs of {@code bulk} through {@code to}; rank 1 acknowledges the last. */
    private double megabytesPerSecond(Startpoint to, MemorySegment bulk, int count) throws IOException {
        process.barrier();
        long start = System.nanoTime();
        if (process.rank() == 0) {
            for (int i = 0; i < count; i++) {
                send(to, BULK, bulk);
            }
            await(BULK_ACK, arrivals[BULK_ACK] + 1);
        } else {
            await(BULK, arrivals[BULK] + count);
            send(to, BULK_ACK, MemorySegment.NULL);
        }
        return (double) count * bulk.byteSize() / ((System.nanoTime() - start) / 1e3);
    }

    private void send(Startpoint to, int handler, MemorySegment payload) {
        to.send(handler, ByteBuffer.allocate(0), payload, SendCompletion.ofFailure(why -> {
            throw new IllegalStateException("the " + to.link().module().name() + " link failed: " + why);
        }));
    }

    private void await(int handler, long count) {
        idle.reset();
        while (arrivals[handler] < count) {
            idle.idle(process.poll());
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** {@code -r rounds -i iterations -s size -c count}. */
    private record Options(int rounds, int iterations, int size, int count) {
        static Options parse(String[] args) {
            Map<String, Integer> values = new HashMap<>(Map.of("-r", 7, "-i", 2000, "-s", 1 << 20, "-c", 64));
            for (int i = 0; i + 1 < args.length; i += 2) {
                if (!values.containsKey(args[i])) {
                    throw new IllegalArgumentException("unknown option " + args[i] + " (-r, -i, -s, -c)");
                }
                values.put(args[i], Integer.parseInt(args[i + 1]));
            }
            return new Options(values.get("-r"), values.get("-i"), values.get("-s"), values.get("-c"));
        }
    }
}
