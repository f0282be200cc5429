package org.weft.tests.harness;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tcp connections between a job's rank processes, as the kernel lists them ({@code ss}), and a way to cut them
 * from outside while both processes live on ({@code ss -K}: the owner's socket is destroyed and the kernel resets
 * the peer's), as a firewall or a broken path would. Only connections whose two ends belong to the given processes
 * are touched: the launcher's and other jobs' connections never are.
 */
public final class RankConnections {
    /** An {@code ss -tnpH} line: queues, local address and port, peer address and port, the owner's pid. */
    private static final Pattern LINE =
            Pattern.compile("^\\S+\\s+\\S+\\s+(\\S+):(\\d+)\\s+(\\S+):(\\d+)\\s+.*pid=(\\d+),");

    private RankConnections() {
    }

    /** A connection's two ends, as {@code ss} names them: the owner's port and its peer's. */
    public record Connection(long ownerPid, int localPort, long peerPid, int peerPort) {
    }

    /** The established connections from one of {@code pids} to another of them (each seen from both ends). */
    public static List<Connection> between(Set<Long> pids) throws IOException, InterruptedException {
        Map<String, Long> ownerOf = new HashMap<>();
        List<String[]> sockets = new ArrayList<>();
        for (String line : ss("-tnpH", "state", "established").split("\n")) {
            Matcher m = LINE.matcher(line.strip());
            if (m.find() && pids.contains(Long.parseLong(m.group(5)))) {
                String local = address(m.group(1)) + ":" + m.group(2);
                ownerOf.put(local, Long.parseLong(m.group(5)));
                sockets.add(new String[] {local, address(m.group(3)) + ":" + m.group(4), m.group(5), m.group(2),
                        m.group(4)});
            }
        }
        List<Connection> connections = new ArrayList<>();
        for (String[] s : sockets) {
            Long peer = ownerOf.get(s[1]);
            if (peer != null) {
                connections.add(new Connection(Long.parseLong(s[2]), Integer.parseInt(s[3]), peer,
                        Integer.parseInt(s[4])));
            }
        }
        return connections;
    }

    /** An address as one end writes it and the other may not: {@code [::ffff:10.0.0.1]} is {@code 10.0.0.1}. */
    private static String address(String ss) {
        return ss.replace("[::ffff:", "").replace("[", "").replace("]", "");
    }

    /** Destroys the owner's end of {@code connection} (its peer's end is reset by the kernel). */
    public static void cut(Connection connection) throws IOException, InterruptedException {
        ss("-K", "-tn", "state", "established", "sport", "=", ":" + connection.localPort(), "and", "dport", "=",
                ":" + connection.peerPort());
    }

    private static String ss(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ss"));
        command.addAll(List.of(arguments));
        Process ss = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(ss.getInputStream().readAllBytes());
        if (!ss.waitFor(10, TimeUnit.SECONDS)) {
            ss.destroyForcibly();
            throw new IOException("ss " + String.join(" ", arguments) + " did not end");
        }
        return out;
    }
}
