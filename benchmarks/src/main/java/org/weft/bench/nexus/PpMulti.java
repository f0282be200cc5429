package org.weft.bench.nexus;

import org.weft.bench.Results;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.weft.adi.DeviceReport;
import org.weft.mm.RsrHandler;

/**
 * {@code ppmulti} (the Nexus papers' Figure 7): what a second, more expensive method costs the cheap one. Thread A
 * ping-pongs RSRs between ranks 0 and 1 over the default selection (shm on one host) and is timed; with
 * {@code --tcp-load}, thread B of the same processes ping-pongs 0-byte RSRs over tcp at the same time (a
 * startpoint restricted to tcp, {@code Context.startpointVia}). Both threads wait by polling the device's progress
 * engine, so each polls both methods, every pass or as {@code tcp_skip_poll} says. The three cases of the figure
 * are three jobs: {@code --param methods=self,shm} (tcp absent), {@code methods=self,shm,tcp} (tcp idle) and the
 * latter with {@code --tcp-load} (tcp busy); {@code benchmarks/scripts/ppmulti-sweep.sh} runs them for a
 * {@code tcp_skip_poll} sweep.
 *
 * <p>Usage under {@code weftrun -np 2} ({@code weft bench ppmulti}):
 * {@code PpMulti [--tcp-load] [-s sizes] [-i iterations] [-r repetitions]}; sizes comma-separated (default 0).
 * Rank 0 prints, per size, the median over the repetitions of A's one-way latency and of B's one-way latency
 * during A's timed windows, with the method each thread's startpoint uses and, at the end, what each method
 * carried (the device's counters), so that the figures can be checked.
 */
public final class PpMulti {
    private static final int SHM_LANE = 4; // handler ids 4-6 (0 is MPI's; an endpoint has 16)
    private static final int TCP_LANE = 8; // handler ids 8-10

    private final RsrProcess process;
    private final PingPongLane timed;
    private final PingPongLane load;
    private final Options options;

    private PpMulti(RsrProcess process, PingPongLane timed, PingPongLane load, Options options) {
        this.process = process;
        this.timed = timed;
        this.load = load;
        this.options = options;
    }

    /** The command line. */
    private record Options(boolean tcpLoad, int[] sizes, int iterations, int repetitions) {
        static Options parse(String[] args) {
            boolean tcpLoad = false;
            int[] sizes = {0};
            int iterations = 10_000;
            int repetitions = 5;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--tcp-load" -> tcpLoad = true;
                    case "-s" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                    case "-i" -> iterations = Integer.parseInt(args[++i]);
                    case "-r" -> repetitions = Integer.parseInt(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]
                            + " (options: --tcp-load, -s sizes, -i iterations, -r repetitions)");
                }
            }
            return new Options(tcpLoad, sizes, iterations, repetitions);
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        PingPongLane timed = new PingPongLane(SHM_LANE);
        PingPongLane load = new PingPongLane(TCP_LANE);
        Map<Integer, RsrHandler> handlers = new HashMap<>(timed.handlers());
        handlers.putAll(load.handlers());
        int maxSize = Arrays.stream(options.sizes).max().orElse(0);
        try (RsrProcess process = RsrProcess.open(handlers);
             Arena arena = Arena.ofShared()) {
            if (process.size() != 2) {
                throw new IllegalStateException("ppmulti needs exactly 2 ranks, not " + process.size());
            }
            int peer = 1 - process.rank();
            timed.bind(process, process.startpoint(peer));
            if (options.tcpLoad) {
                load.bind(process, process.startpointVia(peer, "tcp")); // says why if tcp cannot reach the peer
            }
            MemorySegment payload = arena.allocate(Math.max(maxSize, 1), 64);
            new PpMulti(process, timed, options.tcpLoad ? load : null, options).run(payload);
        } catch (RuntimeException e) {
            RsrProcess.halt(e);
        }
    }

    private void run(MemorySegment payload) throws Exception {
        boolean printing = process.rank() == 0;
        List<String> methods = process.methods();
        boolean tcpRuns = methods.contains("tcp");
        String tcpCase = !tcpRuns ? "absent" : load == null ? "idle" : "busy";
        String skipPoll = tcpRuns ? Integer.toString(process.skipPoll("tcp")) : "-";
        if (printing) {
            System.out.println("# Weft ppmulti: RSR ping-pong of thread A timed while thread B ping-pongs over tcp"
                    + " (Nexus papers' Figure 7)");
            System.out.printf("# methods running: %s; tcp %s; tcp_skip_poll %s; thread A startpoint: %s;"
                            + " thread B startpoint: %s%n", String.join(",", methods), tcpCase, skipPoll,
                    timed.method(), load == null ? "none" : load.method());
            System.out.printf("# %-7s %-9s %8s %13s %13s%n", "tcp", "skip_poll", "Size", "A (us)", "B tcp (us)");
        }
        // one figure, two series: thread A's one-way and thread B's (tcp) during A's windows
        Results results = !printing ? null : Results.table("ppmulti: thread A's ping-pong beside tcp " + tcpCase,
                "Size (bytes)", "One-way (us) [A " + timed.method() + "]", "One-way (us) [B tcp]")
                .expect(options.sizes.length).note("methods", String.join(",", methods)).note("tcp", tcpCase)
                .note("tcp_skip_poll", skipPoll);
        // B runs from the start (its warm-up) to the end; rank 1's B ends on rank 0's STOP.
        Thread loader = null;
        AtomicBoolean stop = new AtomicBoolean();
        Throwable[] loadFailure = new Throwable[1];
        if (load != null) {
            loader = Thread.ofPlatform().name("ppmulti-tcp-load").start(() -> {
                try {
                    load.runUntil(stop::get, payload.asSlice(0, 0));
                } catch (Throwable t) {
                    loadFailure[0] = t;
                }
            });
        }
        try {
            // Unprinted warm-up, as the OSU benchmarks: the JIT compiles every size's path before timing.
            process.barrier();
            timed.oneWayMicros(payload.asSlice(0, 0), 4 * options.iterations);
            for (int size : options.sizes) {
                double[] a = new double[options.repetitions];
                double[] b = new double[options.repetitions];
                for (int r = 0; r < options.repetitions; r++) {
                    process.barrier();
                    long trips0 = load == null ? 0 : load.roundTrips();
                    long t0 = System.nanoTime();
                    a[r] = timed.oneWayMicros(payload.asSlice(0, size), options.iterations);
                    long trips = load == null ? 0 : load.roundTrips() - trips0;
                    b[r] = trips == 0 ? Double.NaN : (System.nanoTime() - t0) / 1e3 / trips / 2;
                }
                if (printing) {
                    System.out.printf("  %-7s %-9s %8d %13.3f %13s%n", tcpCase, skipPoll, size, median(a),
                            load == null ? "-" : String.format("%.3f", median(b)));
                    results.row(size, median(a), load == null ? Double.NaN : median(b));
                }
            }
        } finally {
            stop.set(true);
            if (loader != null) {
                loader.join();
            }
        }
        if (loadFailure[0] != null) {
            throw new IllegalStateException("the tcp load failed", loadFailure[0]);
        }
        if (printing) {
            StringBuilder carried = new StringBuilder("# RSRs delivered to rank 0 by method:");
            for (DeviceReport.MethodReport m : process.report().methods()) {
                carried.append(' ').append(m.method()).append(' ').append(m.rsrsDelivered());
            }
            System.out.println(carried);
        }
    }

    /** The median of {@code values} (NaN ones sort last, so a stalled repetition never hides). */
    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
