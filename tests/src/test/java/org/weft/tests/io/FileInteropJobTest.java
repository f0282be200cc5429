package org.weft.tests.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.StridedFile;

/**
 * MPI-IO in real jobs: a file written by Weft through a strided native view reads back with Open MPI's C MPI-IO
 * ({@code MPI_File_read} under {@code mpirun}), and the reverse, with a C twin built by {@code mpicc} at test
 * time; and an error on a file under {@code ERRORS_ARE_FATAL} aborts the job with the error class as exit code.
 */
@Timeout(300)
class FileInteropJobTest {
    private static final int RANKS = 3;

    @TempDir
    Path dir;

    @Test
    void weftWritesAndOpenMpiReadsAndTheReverse() throws Exception {
        Path twin = buildTwin();
        Path fromWeft = dir.resolve("from-weft");
        WeftrunJob.Result written = WeftrunJob.of("-np", String.valueOf(RANKS), StridedFile.class.getName(), "write",
                fromWeft.toString()).timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, written.exitCode(), written.output());
        String cRead = mpirun(twin, "read", fromWeft);
        for (int r = 0; r < RANKS; r++) {
            assertTrue(cRead.contains("rank " + r + " read ok"), cRead);
        }

        Path fromC = dir.resolve("from-c");
        mpirun(twin, "write", fromC);
        assertEquals(Files.size(fromWeft), Files.size(fromC));
        WeftrunJob.Result read = WeftrunJob.of("-np", String.valueOf(RANKS), StridedFile.class.getName(), "read",
                fromC.toString()).timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, read.exitCode(), read.output());
        for (int r = 0; r < RANKS; r++) {
            assertTrue(read.stdout().contains("rank " + r + " read ok"), read.output());
        }
    }

    @Test
    void aWriteToAReadOnlyFileUnderErrorsAreFatalAbortsWithErrReadOnly() throws Exception {
        Path file = dir.resolve("read-only");
        Files.write(file, new byte[64]);
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", StridedFile.class.getName(), "fatal", file.toString())
                .timeout(Duration.ofSeconds(60)).start();
        assertFalse(result.stdout().contains("SURVIVED"), result.output());
        assertEquals(45, result.exitCode(), result.output()); // MPI_ERR_READ_ONLY
        assertTrue(result.stderr().contains("MPI_File_write on file " + file + " failed: MPI_ERR_READ_ONLY"),
                result.output());
    }

    /** Compiles the C twin with mpicc into the test's directory; skips the test where there is no mpicc. */
    private Path buildTwin() throws IOException, InterruptedException {
        assumeTrue(onPath("mpicc") && onPath("mpirun"), "no mpicc/mpirun on the PATH: Open MPI is not installed");
        Path binary = dir.resolve("strided_file");
        String output = run(List.of("mpicc", "-O2", "-o", binary.toString(),
                Path.of("src/test/c/strided_file.c").toAbsolutePath().toString()));
        assertTrue(Files.isExecutable(binary), output);
        return binary;
    }

    private static String mpirun(Path twin, String mode, Path file) throws IOException, InterruptedException {
        return run(List.of("mpirun", "--oversubscribe", "-np", String.valueOf(RANKS), twin.toString(), mode,
                file.toString()));
    }

    /** Runs {@code command}, which must exit 0 within 120 s; returns what it printed. */
    private static String run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        boolean ended = process.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        String text = new String(output);
        assertTrue(ended && process.exitValue() == 0, command + " failed: " + text);
        return text;
    }

    private static boolean onPath(String program) {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(entry, program))) {
                return true;
            }
        }
        return false;
    }
}
