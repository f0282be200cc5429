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

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.weft.tests.harness.Scripts;
import org.weft.tests.harness.WeftrunJob;

/**
 * One emulated wide area made by {@code bin/weft-wan} under names and addresses of its own (so that tests do not
 * meet a user's {@code wan-} one), and the commands the tests give it. Made by {@link #upForClass}, it is a test
 * class's: registered as its extension, it is brought up before the class's tests (skipping them, saying why, where
 * it cannot be made) and taken down after them, leaving nothing behind.
 */
final class WideArea implements BeforeAllCallback, AfterAllCallback {
    static final Path SCRIPT = Scripts.find("bin/weft-wan");
    /** {@code --rsh} for weftrun: the ranks of a site start in its namespaces. */
    static final String RSH = SCRIPT + " exec";
    private static final long COMMAND_SECONDS = 60;

    private final String prefix;
    private final String net;
    /** {@code weft-wan up}'s options when this is a test class's, else {@code null}. */
    private final String[] upOptions;
    private boolean made;

    /** Names {@code PREFIX...}, addresses {@code NET.K.x}; brought up and down by the test that makes it. */
    WideArea(String prefix, String net) {
        this(prefix, net, null);
    }

    private WideArea(String prefix, String net, String[] upOptions) {
        this.prefix = prefix;
        this.net = net;
        this.upOptions = upOptions;
    }

    /**
     * A test class's wide area ({@code @RegisterExtension static final}): {@code weft-wan up UP_OPTIONS} before its
     * tests, {@code down} after them, asserting that nothing of it is left.
     */
    static WideArea upForClass(String prefix, String net, String... upOptions) {
        return new WideArea(prefix, net, upOptions.clone());
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        assumeItCanBeMade();
        made = true; // from here on afterAll takes it down, whatever fails
        up(upOptions);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (made) {
            made = false;
            down();
            assertEquals(List.of(), leftovers());
        }
    }

    /** Skips the tests (saying why) where the emulated wide area cannot be made; CI has all of it. */
    static void assumeItCanBeMade() {
        assumeTrue("root".equals(System.getProperty("user.name")), "an emulated wide area needs root");
        assumeTrue(Files.exists(Path.of("/dev/net/tun")), "an emulated wide area needs /dev/net/tun");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip")),
                "an emulated wide area needs iproute2 (ip)");
    }

    /**
     * A job of {@code ranksPerSite} ranks on each of two sites, started in the namespaces {@code a1} and {@code b1};
     * {@code rest}: weftrun's other arguments and the program.
     */
    WeftrunJob twoSiteJob(int ranksPerSite, String... rest) {
        List<String> arguments = new ArrayList<>(List.of("--rsh", RSH, "--site", "a:" + ranksPerSite + ":" + host("a1"),
                "--site", "b:" + ranksPerSite + ":" + host("b1")));
        arguments.addAll(List.of(rest));
        return WeftrunJob.of(arguments.toArray(String[]::new));
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
