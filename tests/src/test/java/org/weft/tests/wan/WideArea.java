package org.weft.tests.wan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.weft.tests.harness.Scripts;

/**
 * One emulated wide area made by {@code bin/weft-wan} under names and addresses of its own (so that tests do not
 * meet a user's {@code wan-} one), and the commands the tests give it.
 */
final class WideArea {
    static final Path SCRIPT = Scripts.find("bin/weft-wan");
    private static final long COMMAND_SECONDS = 60;

    private final String prefix;
    private final String net;

    /** Names {@code PREFIX...}, addresses {@code NET.K.x}. */
    WideArea(String prefix, String net) {
        this.prefix = prefix;
        this.net = net;
    }

    /** Skips the tests (saying why) where the emulated wide area cannot be made; CI has all of it. */
    static void assumeItCanBeMade() {
        assumeTrue("root".equals(System.getProperty("user.name")), "an emulated wide area needs root");
        assumeTrue(Files.exists(Path.of("/dev/net/tun")), "an emulated wide area needs /dev/net/tun");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip")),
                "an emulated wide area needs iproute2 (ip)");
    }

    /** A namespace's name: {@code host("a1")}, {@code host("bgw")}. */
    String host(String name) {
        return prefix + name;
    }

    /** The address of host {@code i} of site {@code k} (1-based; the gateway is 254). */
    String address(int site, int i) {
        return net + "." + site + "." + (i == 254 ? 254 : i + 1);
    }

    void up(String... options) throws IOException, InterruptedException {
        run("up", options);
    }

    void set(String... options) throws IOException, InterruptedException {
        run("set", options);
    }

    void down() throws IOException, InterruptedException {
        run("down");
    }

    String status() throws IOException, InterruptedException {
        return run("status");
    }

    /** {@code weft-wan probe HOST ARGS}: its one line of output, asserting it succeeded. */
    String probe(String host, String... arguments) throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of(host));
        all.addAll(List.of(arguments));
        return run("probe", all.toArray(String[]::new)).strip();
    }

    /** {@code weft-wan probe HOST ARGS}: its exit status, output ignored. */
    int probeStatus(String host, String... arguments) throws IOException, InterruptedException {
        Process process = start("probe", host, arguments);
        process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        return process.waitFor();
    }

    /** The probe server on {@code host}, serving once this returns; {@code down} ends it (and so does the caller). */
    Process serve(String host, int port) throws IOException {
        Process server = start("probe", host, "serve", Integer.toString(port));
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("serving")) {
            server.destroyForcibly();
            throw new IllegalStateException("the probe server on " + host + " did not start: " + line);
        }
        return server;
    }

    /** The packets the emulator has taken from site {@code from} for site {@code to}, from its statistics. */
    long packetsCarried(String from, String to) throws IOException, InterruptedException {
        return counter(from, to, "received (\\d+) packets");
    }

    /**
     * The packets the emulator's loss setting dropped from site {@code from} to site {@code to}, once its statistics
     * (written every second) have stopped changing: what the link lost, apart from what a late receiver's socket
     * buffer drops on a busy machine.
     */
    long packetsLostAtRandom(String from, String to) throws IOException, InterruptedException {
        long seen = counter(from, to, "lost at random (\\d+)");
        for (int i = 0; i < 20; i++) {
            Thread.sleep(1500);
            long now = counter(from, to, "lost at random (\\d+)");
            if (now == seen) {
                return now;
            }
            seen = now;
        }
        return seen;
    }

    /** The last statistics line's figure of direction {@code from}:{@code to} that {@code figure} matches. */
    private long counter(String from, String to, String figure) throws IOException, InterruptedException {
        Matcher m = Pattern.compile("(?m)^" + from + ":" + to + " .*?: .*?" + figure).matcher(status());
        long last = 0;
        while (m.find()) {
            last = Long.parseLong(m.group(1));
        }
        return last;
    }

    /** What names this wide area's: namespaces, the link to this machine, its routes, its state. */
    List<String> leftovers() throws IOException, InterruptedException {
        List<String> left = new ArrayList<>();
        for (String command : List.of("ip netns list", "ip -br link", "ip route")) {
            Process p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).start();
            for (String line : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith(prefix) || line.contains(" " + prefix) || line.startsWith(net + ".")) {
                    left.add(command + ": " + line);
                }
            }
            p.waitFor();
        }
        if (Files.exists(Path.of("/run/weft-wan", prefix.replaceAll("-$", "")))) {
            left.add("state directory /run/weft-wan/" + prefix.replaceAll("-$", ""));
        }
        ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains("LinkEmulator")
                && p.info().commandLine().orElse("").contains("tun-a," + net + ".")).forEach(p -> left.add(
                "emulator process " + p.pid()));
        return left;
    }

    private String run(String command, String... arguments) throws IOException, InterruptedException {
        Process process = start(command, null, arguments);
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        assertEquals(0, process.exitValue(), "weft-wan " + command + " " + String.join(" ", arguments) + ":\n"
                + out);
        return out;
    }

    private Process start(String command, String host, String... arguments) throws IOException {
        List<String> line = new ArrayList<>(List.of(SCRIPT.toString(), command));
        if (host != null) {
            line.add(host);
        }
        line.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(line).redirectErrorStream(true);
        builder.environment().put("WEFT_WAN_PREFIX", prefix);
        builder.environment().put("WEFT_WAN_NET", net);
        return builder.start();
    }
}
