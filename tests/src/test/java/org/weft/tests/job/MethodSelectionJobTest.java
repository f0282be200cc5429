package org.weft.tests.job;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.SelfAndRing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The selection policy seen from outside: {@code weftrun --report} prints which method each pair used; the default
 * order puts a rank's messages to itself on {@code self} and to the others on this host on {@code shm};
 * {@code --methods self,tcp} leaves shared memory out and {@code --methods tcp} forces TCP everywhere.
 */
class MethodSelectionJobTest {
    @Test
    void defaultOrderUsesSelfForItselfAndSharedMemoryForPeersOnThisHost() throws Exception {
        List<List<String>> matrix = matrix("--report", "-np", "3", SelfAndRing.class.getName());
        for (int r = 0; r < 3; r++) {
            assertEquals("self", matrix.get(r).get(r));
            assertEquals("shm", matrix.get(r).get((r + 1) % 3));
            assertEquals("-", matrix.get(r).get((r + 2) % 3), "never addressed");
        }
    }

    @Test
    void methodsWithoutShmUseTcpBetweenPeers() throws Exception {
        List<List<String>> matrix = matrix("--methods", "self,tcp", "--report", "-np", "3",
                SelfAndRing.class.getName());
        for (int r = 0; r < 3; r++) {
            assertEquals("self", matrix.get(r).get(r));
            assertEquals("tcp", matrix.get(r).get((r + 1) % 3));
        }
    }

    @Test
    void methodsTcpForcesTcpEvenToItself() throws Exception {
        List<List<String>> matrix = matrix("--methods", "tcp", "--report", "-np", "3", SelfAndRing.class.getName());
        for (int r = 0; r < 3; r++) {
            assertEquals("tcp", matrix.get(r).get(r));
            assertEquals("tcp", matrix.get(r).get((r + 1) % 3));
        }
    }

    /**
     * Each rank sends itself one 4-byte message and the next rank one (a 40-byte envelope each): the modules count
     * what they send and deliver, and the report sums it per method.
     */
    @Test
    void theReportCountsEachMethodsRsrsAndBytes() throws Exception {
        String defaults = report("--report", "-np", "3", SelfAndRing.class.getName());
        String tcpOnly = report("--methods", "tcp", "--report", "-np", "3", SelfAndRing.class.getName());
        for (int r = 0; r < 3; r++) {
            assertEquals(List.of(1L, 44L, 1L, 44L), traffic(defaults, r, "self"), defaults);
            assertEquals(List.of(1L, 44L, 1L, 44L), traffic(defaults, r, "shm"), defaults);
            assertEquals(List.of(2L, 88L, 2L, 88L), traffic(tcpOnly, r, "tcp"), tcpOnly);
        }
    }

    /**
     * tcp starts on demand: in a job on one host, self and shm reach every rank, so no rank starts Netty's event loop
     * (a tenth of a second of start-up and, before, a second at exit).
     */
    @Test
    void aJobOnOneHostDoesNotStartTcp() throws Exception {
        String defaults = report("--report", "-np", "3", SelfAndRing.class.getName());
        for (int r = 0; r < 3; r++) {
            String rank = "rank " + r + " on ";
            String line = defaults.lines().filter(l -> l.startsWith(rank)).findFirst().orElseThrow();
            assertTrue(line.contains("tcp unavailable: not started: the methods before it reach every rank"),
                    defaults);
        }
        assertTrue(defaults.lines().noneMatch(l -> l.matches("\\d+\\s+tcp\\s.*")), "no tcp counters:\n" + defaults);
    }

    /**
     * Nor does it initialise Netty's pooled allocator: the tcp module, constructed in every rank even when it never
     * starts, named it in a field, and its class's initialisation (arenas, Netty's logger probes, a leak detector)
     * cost each rank a third of a singleton Hello's CPU (issue 20, item 12).
     */
    @Test
    void aJobOnOneHostDoesNotInitialiseNetty(@TempDir Path logs) throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", "-J",
                "-Xlog:class+load:file=" + logs.resolve("rank-%p.log"), SelfAndRing.class.getName()).start();
        assertEquals(0, result.exitCode(), result.output());
        List<Path> rankLogs;
        try (Stream<Path> files = Files.list(logs)) {
            rankLogs = files.toList();
        }
        assertEquals(2, rankLogs.size(), rankLogs.toString());
        for (Path log : rankLogs) {
            String loaded = Files.readString(log);
            assertTrue(loaded.contains("org.weft.mm.module.tcp.TcpModule "), "the tcp module is there: " + log);
            assertFalse(loaded.contains("io.netty.buffer.PooledByteBufAllocator "), "Netty's allocator: " + log);
        }
    }

    @Test
    void anUnknownMethodIsAClearError() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("--methods", "carrier-pigeon", "-np", "2",
                SelfAndRing.class.getName()).start();
        assertTrue(result.exitCode() != 0, result.output());
        assertTrue(result.stderr().contains("unknown method(s) [carrier-pigeon]"), result.output());
    }

    /** Runs the job and returns its standard output, which holds the report. */
    private static String report(String... args) throws Exception {
        WeftrunJob.Result result = WeftrunJob.of(args).start();
        assertEquals(0, result.exitCode(), result.output());
        return result.stdout();
    }

    /** RSRs sent, bytes sent, RSRs received and bytes received by {@code method} on {@code rank}, from the report. */
    private static List<Long> traffic(String report, int rank, String method) {
        for (String line : report.split("\n")) {
            String[] cells = line.trim().split("\\s+");
            if (cells.length == 8 && cells[0].equals(Integer.toString(rank)) && cells[1].equals(method)) {
                return List.of(Long.parseLong(cells[2]), Long.parseLong(cells[3]), Long.parseLong(cells[4]),
                        Long.parseLong(cells[5]));
            }
        }
        throw new AssertionError("no " + method + " row for rank " + rank + " in:\n" + report);
    }

    /** Runs the job and parses the method matrix of its report: row = sender, column = receiver. */
    private static List<List<String>> matrix(String... args) throws Exception {
        String[] lines = report(args).split("\n");
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("method matrix")) {
                for (int r = 0; r < 3; r++) {
                    String[] cells = lines[i + 2 + r].trim().split("\\s+");
                    assertEquals(Integer.toString(r), cells[0], String.join("\n", lines));
                    rows.add(List.of(cells).subList(1, cells.length));
                }
            }
        }
        assertEquals(3, rows.size(), "a method matrix in:\n" + String.join("\n", lines));
        return rows;
    }
}
