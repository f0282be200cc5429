package org.weft.tests.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.FullFileSystem;

/**
 * A collective write that runs out of space on a real file system: each job runs in a mount namespace of its own
 * ({@code unshare -m}, gone with the job) with a tmpfs of 1088 KiB over the test's directory, and writes more than
 * that ({@link FullFileSystem}): every aggregator but rank 0 runs out of space. Under {@code ERRORS_RETURN} every
 * rank gets {@code ERR_NO_SPACE}, rank 0 too, and the job goes on; under {@code ERRORS_ARE_FATAL} the job aborts with
 * {@code ERR_NO_SPACE} as its exit code. Before, rank 0 waited for ever for the next window's bytes from the ranks
 * that had failed and left. Skipped where this user cannot make a mount namespace.
 */
@Timeout(300)
class FileFailureJobTest {
    private static final int ERR_NO_SPACE = 41;

    @TempDir
    Path dir;

    @BeforeAll
    static void mountNamespacesWork() throws Exception {
        Process probe = new ProcessBuilder("unshare", "-m", "true").redirectErrorStream(true).start();
        probe.getInputStream().readAllBytes();
        assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0,
                "unshare -m fails here: no mount namespace for a small file system");
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void everyRankGetsErrNoSpaceAndTheJobGoesOn(int ranks) throws Exception {
        WeftrunJob.Result result = onATinyFileSystem(ranks, "return");
        assertEquals(0, result.exitCode(), result.output());
        for (int r = 0; r < ranks; r++) {
            assertTrue(result.stdout().contains("rank " + r + " failed with " + ERR_NO_SPACE), result.output());
            assertTrue(result.stdout().contains("rank " + r + " went on ok"), result.output());
        }
        assertFalse(result.stdout().contains("SURVIVED"), result.output());
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void underErrorsAreFatalTheJobAbortsWithErrNoSpace(int ranks) throws Exception {
        WeftrunJob.Result result = onATinyFileSystem(ranks, "fatal");
        assertEquals(ERR_NO_SPACE, result.exitCode(), result.output());
        assertTrue(result.stderr().contains("MPI_ERR_NO_SPACE"), result.output());
        assertFalse(result.stdout().contains("SURVIVED"), result.output());
        assertFalse(result.stdout().contains("went on"), result.output());
    }

    private WeftrunJob.Result onATinyFileSystem(int ranks, String mode) throws Exception {
        return WeftrunJob.of("-np", String.valueOf(ranks), FullFileSystem.class.getName(), mode, dir.toString())
                .wrappedIn("unshare", "-m", "sh", "-c",
                        "mount -t tmpfs -o size=1088k weft-full \"$WEFT_FULL_DIR\" && exec \"$@\"", "sh")
                .environment(java.util.Map.of("WEFT_FULL_DIR", dir.toString()))
                .timeout(Duration.ofSeconds(120)).start();
    }
}
