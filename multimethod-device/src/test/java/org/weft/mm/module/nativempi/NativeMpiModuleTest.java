package org.weft.mm.module.nativempi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.adi.param.Parameters;
import org.weft.mm.module.RecordingSink;
import org.weft.mm.module.TestModuleContext;
import org.weft.mm.spi.Descriptor;

/**
 * The {@code nativempi} module: honest probing in this JVM (no mpirun), and RSRs between two real processes started
 * by Open MPI's {@code mpirun} ({@link NativeMpiProbeMain}); the in-JVM conformance kit does not apply, since MPI
 * can be initialised once per process.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NativeMpiModuleTest {
    private static final Map<String, String> LAUNCHED = Map.of("OMPI_COMM_WORLD_SIZE", "2", "PMIX_RANK", "0",
            "PMIX_NAMESPACE", "12345", "OMPI_MCA_orte_hnp_uri", "12344.0;tcp://10.1.2.3:4000;tcp6://[fd00::2]:5");
    /** What MPICH's Hydra gives a process: PMI-1's variables and nothing naming the job. */
    private static final Map<String, String> HYDRA = Map.of("PMI_RANK", "0", "PMI_SIZE", "2", "PMI_FD", "6");

    private static String cause(Map<String, String> environment, Map<String, String> parameters) {
        var context = new TestModuleContext(0, 2, "job", "secret", "localhost",
                new Parameters(parameters, Map.of()), new RecordingSink());
        return new NativeMpiModule(environment, line -> { }).unavailabilityCause(context);
    }

    @Test
    void withoutMpirunTheModuleSaysItWasNotStartedByMpirun() {
        assumeTrue(NativeLaunch.of(System.getenv()) == null, "this JVM runs under a native launcher");
        String cause = cause(System.getenv(), Map.of());
        assertTrue(cause != null && cause.startsWith("not started by mpirun"), "cause: " + cause);
    }

    @Test
    void aLibraryThatDoesNotOpenIsNamedInTheCause() {
        String cause = cause(LAUNCHED, Map.of(NativeMpiParameters.LIBRARY.name(), "/no/such/libmpi.so"));
        assertTrue(cause != null && cause.startsWith("libmpi not found (") && cause.contains("/no/such/libmpi.so"),
                "cause: " + cause);
    }

    @Test
    void aLibraryThatIsNoMpiIsNamedInTheCause() {
        String cause = cause(LAUNCHED, Map.of(NativeMpiParameters.LIBRARY.name(), "libc.so.6"));
        assertTrue(cause != null && cause.startsWith("libmpi not found (") && cause.contains("MPI_Get_library_version"),
                "cause: " + cause);
    }

    @Test
    void aBadParameterIsTheCause() {
        String cause = cause(LAUNCHED, Map.of(NativeMpiParameters.SEND_SLOTS.name(), "0"));
        assertTrue(cause != null && cause.contains("nativempi_send_slots"), "cause: " + cause);
        String tooLarge = cause(LAUNCHED, Map.of(NativeMpiParameters.POSTED_RECEIVES.name(), "16",
                NativeMpiParameters.MAX_RSR.name(), "256m"));
        assertTrue(tooLarge != null && tooLarge.contains("receive slots must fit 2 GiB"), "cause: " + tooLarge);
    }

    @Test
    void theLauncherChoosesTheLibrariesTried() {
        assertEquals("libmpi.so.40", NativeLaunch.of(LAUNCHED).defaultLibraries().getFirst());
        NativeLaunch hydra = NativeLaunch.of(HYDRA);
        assertEquals(List.of("libmpich.so.12", "libmpi.so.12", "libmpi.so"), hydra.defaultLibraries());
        assertTrue(NativeLaunch.of(Map.of("PMIX_RANK", "0")).defaultLibraries().containsAll(
                List.of("libmpi.so.40", "libmpich.so.12")), "a PMIx launcher may mean either");
        assertNull(NativeLaunch.of(Map.of("PMIX_NAMESPACE", "x")), "a namespace without a launcher's size/rank");
    }

    @Test
    void aLibraryOfAnotherMpiThanTheLaunchersIsRefused() {
        String underHydra = cause(HYDRA, Map.of(NativeMpiParameters.LIBRARY.name(), "libmpi.so.40"));
        assertEquals("libmpi not found (libmpi.so.40 is Open MPI, but an MPICH launcher (PMI) started this process)",
                underHydra);
        String underOpenMpi = cause(LAUNCHED, Map.of(NativeMpiParameters.LIBRARY.name(), "libmpich.so.12"));
        assertEquals("libmpi not found (libmpich.so.12 is MPICH, but Open MPI's mpirun started this process)",
                underOpenMpi);
    }

    @Test
    void descriptorsRoundTripAndForeignBytesAreRejected() {
        NativeAddress address = new NativeAddress("12345@tcp://10.1.2.3:4000", 17);
        assertEquals(address, NativeAddress.of(address.toDescriptor()));
        assertThrows(IllegalArgumentException.class,
                () -> NativeAddress.of(new Descriptor(NativeMpiModule.NAME, new byte[] {0, 9, 1})));
        assertThrows(IllegalArgumentException.class, () -> NativeAddress.of(new Descriptor("tcp", new byte[0])));
    }

    /** Two JVMs under Open MPI's mpirun: RSRs of 0 B to 1 MiB checked byte by byte, then a back-pressured burst. */
    @Test
    void twoProcessesUnderOpenMpiExchangeRsrs() throws Exception {
        assumeTrue(onPath("mpirun"), "mpirun is not installed");
        String output = exchangeRsrsUnder(List.of("mpirun", "-np", "2", "--oversubscribe"), "Open MPI");
        assertTrue(output.matches("(?s).*burst of 20000 sent, back-pressured [1-9][0-9]* times.*"),
                "the burst should have met back-pressure (8 send slots):\n" + output);
    }

    /** The same under MPICH's Hydra (Debian's mpich package, which .ci/run installs beside Open MPI). */
    @Test
    void twoProcessesUnderMpichExchangeRsrs() throws Exception {
        assertTrue(onPath("mpirun.mpich"), "MPICH (Debian's mpich package) is not installed: .ci/run installs it");
        exchangeRsrsUnder(List.of("mpirun.mpich", "-np", "2"), "MPICH");
    }

    private static String exchangeRsrsUnder(List<String> mpirun, String flavour) throws Exception {
        List<String> command = new ArrayList<>(mpirun);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                NativeMpiProbeMain.class.getName(), "check"));
        String output = run(command, 150);
        assertTrue(output.contains("rank 0 OK") && output.contains("rank 1 OK"), output);
        assertTrue(output.contains("OK: " + flavour + " ("), output);
        assertFalse(output.contains("UCX  WARN"), "UCX_ERROR_SIGNALS should be read when UCX loads:\n" + output);
        return output;
    }

    /** Runs {@code command} to its end (killing it and its children after {@code seconds}); returns its output. */
    static String run(List<String> command, int seconds) throws IOException, InterruptedException {
        Path log = Files.createTempFile("nativempi-", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        Process process = builder.start();
        try {
            boolean done = process.waitFor(seconds, TimeUnit.SECONDS);
            if (!done) {
                dumpThreadsOfJavaChildren(process);
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (!done) {
                fail("mpirun did not finish within " + seconds + " s (thread dumps of the ranks below):\n" + output);
            }
            assertEquals(0, process.exitValue(), "mpirun's exit code; output:\n" + output);
            return output;
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    /** SIGQUIT makes each JVM rank print its threads' stacks into the output mpirun forwards. */
    private static void dumpThreadsOfJavaChildren(Process process) throws IOException, InterruptedException {
        for (ProcessHandle child : process.descendants().toList()) {
            if (child.info().command().orElse("").endsWith("java")) {
                new ProcessBuilder("kill", "-QUIT", Long.toString(child.pid())).start().waitFor(5, TimeUnit.SECONDS);
            }
        }
        Thread.sleep(2000); // let mpirun forward the dumps
    }

    private static boolean onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
