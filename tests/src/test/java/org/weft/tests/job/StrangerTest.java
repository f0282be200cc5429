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
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stranger that connects to a Weft port (the launcher's bootstrap service, every rank's TCP method) and sends
 * garbage is refused — its connection is closed — and the job completes correctly.
 */
class StrangerTest {
    private static final Pattern LISTENER = Pattern.compile(":(\\d+)\\s.*pid=(\\d+)");

    @Test
    void garbageOnEveryWeftPortIsRefusedAndTheJobCompletes() throws Exception {
        List<String> knocked = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        WeftrunJob.Result result = WeftrunJob.of("-np", "3", SlowRing.class.getName(), "40").run(weftrun -> {
            try {
                Set<Long> pids = waitForRanks(weftrun, 3);
                pids.add(weftrun.pid());
                for (int port : listeningPorts(pids, 4)) {
                    knocked.add(Integer.toString(port));
                    String problem = knock(port);
                    if (problem != null) {
                        problems.add("port " + port + ": " + problem);
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

    /**
     * TCP ports these processes listen on, from {@code ss -ltnpH}, once there are at least {@code expected} of them
     * (the ranks open their listeners while they start) or after 20 s.
     */
    private static List<Integer> listeningPorts(Set<Long> pids, int expected) throws IOException, InterruptedException {
        List<Integer> ports = new ArrayList<>();
        String out = "";
        for (int attempt = 0; attempt < 200 && ports.size() < expected; attempt++) {
            Thread.sleep(100);
            Process ss = new ProcessBuilder("ss", "-ltnpH").redirectErrorStream(true).start();
            out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            ss.waitFor();
            ports.clear();
            for (String line : out.split("\n")) {
                Matcher m = LISTENER.matcher(line);
                if (m.find() && pids.contains(Long.parseLong(m.group(2)))) {
                    ports.add(Integer.parseInt(m.group(1)));
                }
            }
        }
        assertFalse(ports.isEmpty(), "no listening ports found for " + pids + " in:\n" + out);
        return ports;
    }
}
