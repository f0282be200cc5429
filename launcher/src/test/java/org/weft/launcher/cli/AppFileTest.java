package org.weft.launcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.launcher.plan.AppContext;
import org.weft.launcher.plan.JobPlan;

/** {@code weftrun --app FILE}: Open MPI's appfile, one app context per line. */
class AppFileTest {
    private static JobPlan plan(String... args) {
        WeftRun command = new WeftRun(Map.of("CLASSPATH", "env.jar"), InputStream.nullInputStream(),
                new PrintStream(OutputStream.nullOutputStream()), new PrintStream(OutputStream.nullOutputStream()));
        WeftRun.commandLine(command, System.out, System.err).parseArgs(args);
        return command.plan();
    }

    @Test
    void eachLineIsAnAppContextAndCommentsAndBlankLinesAreSkipped(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("apps"), """
                # ocean and atmosphere
                -np 2 -cp ocean.jar Ocean 10 "a b"

                -np 3 -cp atm.jar -J -Xmx1g -x MODE=fast Atmosphere
                """);
        JobPlan plan = plan("--report", "--app", file.toString());
        assertEquals(5, plan.np());
        assertEquals(2, plan.apps().size());
        AppContext ocean = plan.apps().get(0);
        assertEquals(List.of("ocean.jar"), ocean.classPath());
        assertEquals("Ocean", ocean.mainClass());
        assertEquals(List.of("10", "a b"), ocean.programArgs());
        AppContext atmosphere = plan.apps().get(1);
        assertEquals(3, atmosphere.np());
        assertEquals(List.of("-Xmx1g"), atmosphere.jvmArgs());
        assertEquals(Map.of("MODE", "fast"), atmosphere.environment());
        assertEquals(1, plan.appNumOf(4));
        assertEquals("1", plan.environment().get("WEFT_REPORT"), "the command line's options are the job's");
    }

    @Test
    void wordsSplitAtBlanksOutsideQuotes() {
        assertEquals(List.of("-np", "1", "Main", "it's", "a b", ""), AppFile.words("-np 1  Main \"it's\" 'a b' ''"));
    }

    @Test
    void aBadAppfileIsABadCommandLineNamingTheLine(@TempDir Path dir) throws IOException {
        Path noNp = Files.writeString(dir.resolve("no-np"), "-np 1 A\nB\n");
        assertRefused(List.of("--app", noNp.toString()), noNp + ":2");
        Path empty = Files.writeString(dir.resolve("empty"), "# nothing\n\n");
        assertRefused(List.of("--app", empty.toString()), "no app context");
        Path quote = Files.writeString(dir.resolve("quote"), "-np 1 A 'x\n");
        assertRefused(List.of("--app", quote.toString()), quote + ":1: an unclosed ' quote");
        assertRefused(List.of("--app", noNp.toString(), "-np", "2", "Main"), "put none of MAIN, -np");
        assertRefused(List.of("--app", dir.resolve("missing").toString()), "cannot read the appfile");
    }

    private static void assertRefused(List<String> args, String reason) {
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int status = WeftRun.execute(args.toArray(String[]::new), InputStream.nullInputStream(),
                new PrintStream(OutputStream.nullOutputStream()), new PrintStream(stderr, true, StandardCharsets.UTF_8));
        assertEquals(2, status, stderr.toString(StandardCharsets.UTF_8));
        assertTrue(stderr.toString(StandardCharsets.UTF_8).contains(reason), stderr.toString(StandardCharsets.UTF_8));
    }
}
