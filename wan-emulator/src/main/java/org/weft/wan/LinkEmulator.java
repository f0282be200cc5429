package org.weft.wan;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The emulator's command line (started by {@code bin/weft-wan} in its router namespace):
 * <pre>
 *   LinkEmulator --port SITE=DEVICE,PREFIX[,PREFIX...] ...   each site's TUN device and addresses (two or more)
 *                [--link SPEC]                               every direction: delay=, rtt=, rate=, queue=, loss=
 *                [--link FROM:TO:SPEC]                       one direction, over the default
 *                [--seed N] [--stats SECONDS] [--stats-file PATH] [--realtime PRIORITY] [--batch TIME]
 * </pre>
 * The forwarding thread runs in the real-time class at {@code --realtime} (default 10; 0: at normal priority).
 * {@code --batch 200us} waits that long between busy passes: less CPU at high packet rates, up to twice that more
 * delay (default 0: every packet on time).
 * Statistics per direction go to the {@code --stats-file} (else standard output) every {@code --stats} seconds
 * (default 1) while packets flow, and at exit (SIGTERM).
 */
public final class LinkEmulator {
    private LinkEmulator() {
    }

    public static void main(String[] args) {
        Options options = null;
        DelayLine[][] lines = null;
        try {
            options = Options.parse(args);
            lines = delayLines(options.ports, options.defaultSpec, options.directionSpecs, options.seed);
        } catch (IllegalArgumentException e) {
            usage(e.getMessage());
        }
        for (SitePort port : options.ports) {
            port.attach();
        }
        Forwarder forwarder = new Forwarder(options.ports.toArray(SitePort[]::new), lines, options.batchNanos);
        for (DelayLine[] row : lines) {
            for (DelayLine line : row) {
                if (line != null) {
                    System.out.println("link " + line.name() + ": " + line.spec());
                }
            }
        }
        System.out.flush();
        StatisticsFile statistics = new StatisticsFile(options.statisticsFile);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> statistics.write(forwarder::printStatistics)));
        forwarder.run(System.out, statistics, options.statsSeconds * 1_000_000_000L, options.realTimePriority);
    }

    /** The command line, read; a bad one is an {@link IllegalArgumentException} saying what is wrong. */
    private static final class Options {
        final List<SitePort> ports = new ArrayList<>();
        String defaultSpec = "";
        final Map<String, String> directionSpecs = new LinkedHashMap<>();
        long seed = System.nanoTime();
        long statsSeconds = 1;
        int realTimePriority = 10;
        Path statisticsFile;
        long batchNanos;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i += 2) {
                if (i + 1 == args.length) {
                    throw new IllegalArgumentException("option " + args[i] + " needs a value");
                }
                String value = args[i + 1];
                switch (args[i]) {
                    case "--port" -> o.ports.add(SitePort.parse(value));
                    case "--link" -> o.link(value);
                    case "--seed" -> o.seed = Long.parseLong(value);
                    case "--stats" -> o.statsSeconds = Long.parseLong(value);
                    case "--realtime" -> o.realTimePriority = Integer.parseInt(value);
                    case "--stats-file" -> o.statisticsFile = Path.of(value);
                    case "--batch" -> o.batchNanos = Units.nanos(value);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (o.ports.size() < 2) {
                throw new IllegalArgumentException("give at least two --port SITE=DEVICE,PREFIX");
            }
            return o;
        }

        /** {@code SPEC} for every direction, or {@code FROM:TO:SPEC} for one. */
        private void link(String value) {
            String[] parts = value.split(":", 3);
            if (parts.length == 3) {
                directionSpecs.put(parts[0] + ":" + parts[1], parts[2]);
            } else {
                defaultSpec = defaultSpec + "," + value;
            }
        }
    }

    private static DelayLine[][] delayLines(List<SitePort> ports, String defaultSpec,
                                           Map<String, String> directionSpecs, long seed) {
        DelayLine[][] lines = new DelayLine[ports.size()][ports.size()];
        for (int from = 0; from < ports.size(); from++) {
            for (int to = 0; to < ports.size(); to++) {
                if (from != to) {
                    String name = ports.get(from).site() + ":" + ports.get(to).site();
                    String spec = defaultSpec + "," + directionSpecs.getOrDefault(name, "");
                    lines[from][to] = new DelayLine(name, LinkSpec.parse(spec), seed + from * 31L + to);
                }
            }
        }
        for (String direction : directionSpecs.keySet()) {
            if (ports.stream().noneMatch(p -> direction.startsWith(p.site() + ":"))
                    || ports.stream().noneMatch(p -> direction.endsWith(":" + p.site()))) {
                usage("--link " + direction + ": no such sites");
            }
        }
        return lines;
    }

    private static void usage(String problem) {
        System.err.println("LinkEmulator: " + problem);
        System.err.println("usage: LinkEmulator --port SITE=DEVICE,PREFIX[,PREFIX...] (two or more) "
                + "[--link [FROM:TO:]delay=50ms,rate=400mbit,queue=1000p,loss=0.01%] [--seed N] [--stats SECONDS]"
                + " [--stats-file PATH] [--realtime PRIORITY] [--batch TIME]");
        System.exit(2);
    }
}
