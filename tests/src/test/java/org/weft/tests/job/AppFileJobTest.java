package org.weft.tests.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.ShowApp;

/** {@code weftrun --app FILE}: each line of the appfile an app context of one world, as mpirun's appfile. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AppFileJobTest {
    private static final Pattern APP = Pattern.compile("APP (\\w+) rank (\\d) of 3 appnum (\\d) .* role (\\w+) ");

    @Test
    void eachLineOfTheAppfileIsAnAppContextOfOneWorld(@TempDir Path dir) throws Exception {
        String cp = "'" + WeftrunJob.classPath() + "'";
        Path appfile = Files.writeString(dir.resolve("coupled.app"), "# one ocean, two atmospheres\n"
                + "-np 1 -cp " + cp + " -x ROLE=sea " + ShowApp.class.getName() + " ocean\n\n"
                + "-np 2 -cp " + cp + " -x ROLE=air " + ShowApp.class.getName() + " atmosphere\n");
        WeftrunJob.Result result = WeftrunJob.of("--app", appfile.toString()).timeout(Duration.ofSeconds(90))
                .start();
        assertEquals(0, result.exitCode(), result.output());
        Matcher m = APP.matcher(result.stdout());
        int seen = 0;
        while (m.find()) {
            boolean ocean = m.group(2).equals("0");
            assertEquals(ocean ? "ocean" : "atmosphere", m.group(1), m.group());
            assertEquals(ocean ? "0" : "1", m.group(3), "APPNUM: " + m.group());
            assertEquals(ocean ? "sea" : "air", m.group(4), "the line's -x: " + m.group());
            seen++;
        }
        assertEquals(3, seen, result.output());
        assertTrue(result.stdout().contains("rank 0 size 2 sum 3"), "one world of both lines: " + result.stdout());
    }
}
