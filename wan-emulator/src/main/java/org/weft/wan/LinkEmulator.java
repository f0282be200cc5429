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
        List<SitePort> ports = new ArrayList<>();
        String defaultSpec = "";
        Map<String, String> directionSpecs = new LinkedHashMap<>();
        long seed = System.nanoTime();
        long statsSeconds = 1;
        int realTimePriority = 10;
        Path statisticsFile = null;
        long batchNanos = 0;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            if (value == null) {
                usage("option " + args[i] + " needs a value");
            }
            switch (args[i++]) {
                case "--port" -> ports.add(SitePort.parse(value));
                case "--link" -> {
                    String[] parts = value.split(":", 3);
                    if (parts.length == 3) {
                        directionSpecs.put(parts[0] + ":" + parts[1], parts[2]);
                    } else {
                        defaultSpec = defaultSpec + "," + value;
                    }
                }
                case "--seed" -> seed = Long.parseLong(value);
                case "--stats" -> statsSeconds = Long.parseLong(value);
                case "--realtime" -> realTimePriority = Integer.parseInt(value);
                case "--stats-file" -> statisticsFile = Path.of(value);
                case "--batch" -> batchNanos = Units.nanos(value);
                default -> usage("unknown option " + args[i - 1]);
            }
        }
        if (ports.size() < 2) {
            usage("give at least two --port SITE=DEVICE,PREFIX");
        }
        DelayLine[][] lines = delayLines(ports, defaultSpec, directionSpecs, seed);
        for (SitePort port : ports) {
            port.attach();
        }
        Forwarder forwarder = new Forwarder(ports.toArray(SitePort[]::new), lines, batchNanos);
        for (DelayLine[] row : lines) {
            for (DelayLine line : row) {
                if (line != null) {
                    System.out.println("link " + line.name() + ": " + line.spec());
                }
            }
        }
        System.out.flush();
        StatisticsFile statistics = new StatisticsFile(statisticsFile);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> statistics.write(forwarder::printStatistics)));
        forwarder.run(System.out, statistics, statsSeconds * 1_000_000_000L, realTimePriority);
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
