package org.weft.tests.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.JobPort;

/**
 * Two jobs started by two {@code weftrun}s meet through a port whose name one writes to a file and the other reads:
 * an intercommunicator between jobs with different secrets, over tcp (plaintext, and TLS with {@code tcp_tls=all},
 * whose certificates prove the port link's key). A stranger that knocks at the port with garbage is refused and the
 * accept goes on; a name with an altered token is refused with {@code ERR_PORT}; a connecting root that goes away
 * right after proving the token fails the accept with {@code ERR_PORT} instead of leaving it hanging.
 */
@Timeout(value = 200, unit = TimeUnit.SECONDS)
class TwoJobsJobTest {
    private static final Duration JOB_LIMIT = Duration.ofSeconds(150);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} accepting, {1} connecting, tcp_tls={2}")
    @CsvSource({"2, 3, cross-site", "1, 2, all"})
    void twoJobsMeetThroughAPortNameInAFile(int acceptors, int connectors, String tls) throws Exception {
        Path file = dir.resolve("port");
        Both jobs = runBoth(WeftrunJob.of("-np", Integer.toString(acceptors), "--param", "tcp_tls=" + tls,
                JobPort.class.getName(), "accept", file.toString()), () -> {
                    String port = JobPort.awaitPort(file);
                    assertEquals(1, knockWithGarbage(port), "a stranger is told it was refused");
                }, WeftrunJob.of("-np", Integer.toString(connectors), "--param", "tcp_tls=" + tls,
                JobPort.class.getName(), "connect", file.toString()));
        String both = jobs.succeeded();
        WeftrunJob.Result accepted = jobs.accepted();
        WeftrunJob.Result connecting = jobs.connecting();
        assertTrue(connecting.stdout().contains("WRONG TOKEN class 43"), both);
        assertTrue(accepted.stderr().contains("refused a connection"), both);
        // Both jobs part cleanly: an accepted connection's goodbye goes inside TLS, not as plaintext under it.
        assertFalse(both.contains("integrity check"), both);
        for (int rank = 0; rank < acceptors; rank++) {
            String line = "SIDE accept rank " + rank + " size " + acceptors + " remote " + connectors + " sum "
                    + sumOf(connectors);
            assertTrue(accepted.stdout().contains(line), line + "\n" + both);
        }
        for (int rank = 0; rank < connectors; rank++) {
            String line = "SIDE connect rank " + rank + " size " + connectors + " remote " + acceptors + " sum "
                    + sumOf(acceptors);
            assertTrue(connecting.stdout().contains(line), line + "\n" + both);
        }
    }

    /**
     * Names shared by two weftruns given one directory ({@code --names}, as Open MPI's ompi-server): one job
     * publishes its port, the other looks it up (until it is there) and connects; the name is gone after the
     * unpublish.
     */
    @Test
    void twoJobsGivenOneNameDirectoryFindEachOthersPorts() throws Exception {
        Path names = java.nio.file.Files.createDirectory(dir.resolve("names"));
        Both jobs = runBoth(WeftrunJob.of("--names", names.toString(), "-np", "2", JobPort.class.getName(), "publish",
                "ocean/port 1"), () -> { }, WeftrunJob.of("--names", names.toString(), "-np", "2",
                JobPort.class.getName(), "lookup", "ocean/port 1"));
        String both = jobs.succeeded();
        WeftrunJob.Result accepted = jobs.accepted();
        WeftrunJob.Result connecting = jobs.connecting();
        assertTrue(accepted.stdout().contains("SIDE publish rank 1 size 2 remote 2 sum 201"), both);
        assertTrue(connecting.stdout().contains("SIDE lookup rank 0 size 2 remote 2 sum 201"), both);
        try (var left = java.nio.file.Files.list(names)) {
            assertEquals(List.of(), left.toList(), "unpublished: no name is left");
        }
    }

    @Test
    void aConnectingRootThatGoesAwayAfterTheHandshakeFailsTheAccept() throws Exception {
        Path file = dir.resolve("port");
        CompletableFuture<WeftrunJob.Result> accepting = CompletableFuture.supplyAsync(() -> run(WeftrunJob.of(
                "-np", "2", JobPort.class.getName(), "accept", file.toString())));
        String port = JobPort.awaitPort(file);
        try (Socket socket = dial(port)) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] nonceA = new byte[32];
            in.readFully(new byte[9]); // magic and version
            in.readFully(nonceA);
            byte[] nonceC = new byte[32];
            new SecureRandom().nextBytes(nonceC);
            out.write(nonceC);
            out.write(proof(tokenOf(port), nonceA, nonceC));
            out.flush();
            assertEquals(0, in.readUnsignedByte(), "the right token is accepted");
            in.readFully(new byte[32]);
        } // and gone, as a connecting job that died
        WeftrunJob.Result accepted = accepting.get(JOB_LIMIT.toSeconds() + 20, TimeUnit.SECONDS);
        assertEquals(0, accepted.exitCode(), accepted.output());
        assertTrue(accepted.stdout().contains("ACCEPT FAILED class 43"), accepted.output());
    }

    /** What two jobs left: the accepting one, started first in the background, and the connecting one. */
    private record Both(WeftrunJob.Result accepted, WeftrunJob.Result connecting) {
        /** Checks that both ended well; returns their output, for the messages of later checks. */
        String succeeded() {
            String output = accepted.output() + "\n---- connecting job\n" + connecting.output();
            assertEquals(0, accepted.exitCode(), output);
            assertEquals(0, connecting.exitCode(), output);
            return output;
        }
    }

    /** A step of the test's own between the two jobs' starts. */
    private interface Between {
        void run() throws Exception;
    }

    private static Both runBoth(WeftrunJob accepting, Between between, WeftrunJob connecting) throws Exception {
        CompletableFuture<WeftrunJob.Result> first = CompletableFuture.supplyAsync(() -> run(accepting));
        between.run();
        WeftrunJob.Result second = connecting.timeout(JOB_LIMIT).start();
        return new Both(first.get(JOB_LIMIT.toSeconds() + 20, TimeUnit.SECONDS), second);
    }

    private static WeftrunJob.Result run(WeftrunJob job) {
        try {
            return job.timeout(JOB_LIMIT).start();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static int sumOf(int ranks) {
        return ranks * 100 + ranks * (ranks - 1) / 2;
    }

    /** Sends 64 bytes of garbage where the proof goes; returns the port's status byte (1: refused). */
    private static int knockWithGarbage(String port) throws Exception {
        try (Socket socket = dial(port)) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            in.readFully(new byte[41]);
            byte[] garbage = new byte[64];
            Arrays.fill(garbage, (byte) 'x');
            socket.getOutputStream().write(garbage);
            return in.readUnsignedByte();
        }
    }

    private static Socket dial(String port) throws Exception {
        String first = port.split("/")[2].split(",")[0]; // 127.0.0.1:PORT
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(first.substring(first.indexOf(':') + 1))),
                10_000);
        socket.setSoTimeout(30_000);
        return socket;
    }

    private static byte[] tokenOf(String port) {
        return Base64.getUrlDecoder().decode(port.substring(port.lastIndexOf('/') + 1));
    }

    private static byte[] proof(byte[] token, byte[] nonceA, byte[] nonceC) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(token, "HmacSHA256"));
        mac.update("weft port connect".getBytes(StandardCharsets.US_ASCII));
        mac.update(nonceA);
        return mac.doFinal(nonceC);
    }
}
