package org.weft.tests.job;

import org.junit.jupiter.api.Test;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.SlowRing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stranger that connects to a Weft port (the launcher's bootstrap service, every rank's TCP method) and sends
 * garbage is refused — its connection is closed — and the job completes correctly; the ports of a job on one host
 * listen on loopback only, and a flood of strangers makes a few lines and a count, not a line each.
 */
class StrangerTest {
    /** {@code ss -ltnpH}: state, queues, local address:port, peer, process. */
    private static final Pattern LISTENER = Pattern.compile("^\\S+\\s+\\d+\\s+\\d+\\s+(\\S+):(\\d+)\\s.*pid=(\\d+)");
    /** tcp is started on demand; a method order chosen by the user starts it, so the ranks listen. */
    private static final String[] WITH_TCP = {"--methods", "self,shm,tcp"};
    /** 127.0.0.1 as {@code ss} shows it for an IPv4 socket and for Java's dual-stack (IPv6) one. */
    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "[::ffff:127.0.0.1]");
    private static final int FLOOD = 300;
    /** The lines printed in full per interval (the launcher's and tcp's {@code ThrottledLog}). */
    private static final int BURST = 5;

    @Test
    void garbageOnEveryWeftPortIsRefusedAndTheJobCompletesAndEveryPortIsOnLoopback() throws Exception {
        List<String> knocked = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<Integer, String> addresses = new TreeMap<>();
        WeftrunJob.Result result = WeftrunJob.of(WITH_TCP[0], WITH_TCP[1], "-np", "3", SlowRing.class.getName(), "40")
                .run(weftrun -> {
                    try {
                        Set<Long> pids = waitForRanks(weftrun, 3);
                        pids.add(weftrun.pid());
                        for (Listener listener : listeners(pids, 4)) {
                            addresses.put(listener.port(), listener.address());
                            knocked.add(Integer.toString(listener.port()));
                            String problem = knock(listener.port());
                            if (problem != null) {
                                problems.add("port " + listener.port() + ": " + problem);
                            }
                        }
                    } catch (IOException | InterruptedException e) {
                        problems.add(e.toString());
                    }
                });
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("RING OK 80"), result.output());
        assertTrue(knocked.size() >= 4, "bootstrap and 3 rank ports expected, knocked on " + knocked);
        assertTrue(problems.isEmpty(), problems + "\n" + result.output());
        assertEquals(List.of(), addresses.entrySet().stream().filter(e -> !LOOPBACK.contains(e.getValue()))
                .map(e -> e.getValue() + ":" + e.getKey()).toList(), "a job on one host listens on loopback only");
    }

    /**
     * {@value #FLOOD} strangers at the launcher's port and as many at rank 0's: each side prints the first
     * {@value #BURST} refusals and counts the rest (it used to print a line each), and the counts add up.
     */
    @Test
    void aFloodOfStrangersMakesAFewLinesAndACount() throws Exception {
        List<String> problems = new ArrayList<>();
        WeftrunJob.Result result = WeftrunJob.of(WITH_TCP[0], WITH_TCP[1], "-np", "2", SlowRing.class.getName(), "40")
                .run(weftrun -> {
                    try {
                        Set<Long> ranks = waitForRanks(weftrun, 2);
                        Set<Long> all = new java.util.HashSet<>(ranks);
                        all.add(weftrun.pid());
                        for (Listener listener : listeners(all, 3)) {
                            boolean launcher = listener.pid() == weftrun.pid();
                            for (int i = 0; i < FLOOD && (launcher || listener.pid() == minimum(ranks)); i++) {
                                String problem = knock(listener.port());
                                if (problem != null) {
                                    problems.add("port " + listener.port() + ": " + problem);
                                    break;
                                }
                            }
                        }
                    } catch (IOException | InterruptedException e) {
                        problems.add(e.toString());
                    }
                });
        assertEquals(0, result.exitCode(), result.output());
        assertEquals(List.of(), problems, result.output());
        assertCounted(result.stderr(), "weftrun: refused a connection from ",
                Pattern.compile("weftrun: refused (\\d+) more connections in the last 10 s"));
        int rank = result.stderr().contains("weft tcp (rank 0): closing") ? 0 : 1;
        assertCounted(result.stderr(), "weft tcp (rank " + rank + "): closing connection from ",
                Pattern.compile("weft tcp \\(rank " + rank + "\\): closed (\\d+) more connections that sent no valid"
                        + " HELLO in the last 10 s"));
    }

    /** At most {@value #BURST} lines start with {@code line}; they and the summaries' counts add up to the flood. */
    private static void assertCounted(String stderr, String line, Pattern summary) {
        long full = stderr.lines().filter(l -> l.startsWith(line)).count();
        long counted = 0;
        for (Matcher m = summary.matcher(stderr); m.find(); ) {
            counted += Long.parseLong(m.group(1));
        }
        assertTrue(full <= BURST, full + " lines '" + line + "...':\n" + stderr);
        assertEquals(FLOOD, full + counted, "each stranger printed or counted:\n" + stderr);
    }

    private static long minimum(Set<Long> pids) {
        return pids.stream().mapToLong(Long::longValue).min().orElse(-1);
    }

    /** Sends garbage; returns null when the server closed the connection, else what went wrong. */
    private static String knock(int port) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            socket.setSoTimeout(3_000);
            byte[] garbage = new byte[4096];
            new Random(port).nextBytes(garbage);
            garbage[0] = 0x7f; // a huge length prefix for length-framed protocols
            try {
                socket.getOutputStream().write(garbage);
                socket.getOutputStream().write("GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            } catch (IOException closedWhileWriting) {
                return null;
            }
            InputStream in = socket.getInputStream();
            try {
                while (in.read() >= 0) {
                    // a challenge or anything else: drain until the server closes
                }
                return null;
            } catch (SocketTimeoutException e) {
                return "still open 3 s after garbage";
            } catch (IOException reset) {
                return null;
            }
        }
    }

    private static Set<Long> waitForRanks(Process weftrun, int n) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            Set<Long> pids = weftrun.descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
            if (pids.size() >= n) {
                return new java.util.HashSet<>(pids);
            }
            Thread.sleep(50);
        }
        return new java.util.HashSet<>();
    }

    /** A listening TCP socket: its local address and port, and its process. */
    private record Listener(String address, int port, long pid) {
    }

    /**
     * The TCP sockets these processes listen on, from {@code ss -ltnpH}, once there are at least {@code expected} of
     * them (the ranks open their listeners while they start) or after 20 s.
     */
    private static List<Listener> listeners(Set<Long> pids, int expected) throws IOException, InterruptedException {
        List<Listener> listeners = new ArrayList<>();
        String out = "";
        for (int attempt = 0; attempt < 200 && listeners.size() < expected; attempt++) {
            Thread.sleep(100);
            Process ss = new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
            out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            ss.waitFor();
            listeners.clear();
            for (String line : out.split("\n")) {
                Matcher m = LISTENER.matcher(line);
                if (m.find() && pids.contains(Long.parseLong(m.group(3)))) {
                    listeners.add(new Listener(m.group(1), Integer.parseInt(m.group(2)), Long.parseLong(m.group(3))));
                }
            }
        }
        assertFalse(listeners.isEmpty(), "no listening ports found for " + pids + " in:\n" + out);
        return listeners;
    }
}
