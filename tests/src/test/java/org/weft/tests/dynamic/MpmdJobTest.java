package org.weft.tests.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.ShowApp;

/**
 * {@code weftrun -np 2 A : -np 3 B}: two app contexts, one {@code COMM_WORLD}; each rank sees its own APPNUM,
 * its own program arguments and variables, {@code MPI.INFO_ENV}'s keys, and reaches the other context through an
 * intercommunicator; on the default methods, on tcp, and with each context on a site of its own.
 */
class MpmdJobTest {
    private static final Pattern APP = Pattern.compile("APP (\\w+) rank (\\d) of 5 appnum (\\d) maxprocs (\\d) "
            + "command (\\S+) argv (\\S+) thread_level MPI_THREAD_SINGLE role (\\w+) universe (\\d+)");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"default", "tcp", "sites"})
    void twoProgramsShareOneWorldEachWithItsAppnum(String variant) throws Exception {
        String cp = WeftrunJob.classPath();
        List<String> command = new ArrayList<>(switch (variant) {
            case "tcp" -> List.of("--methods", "tcp", "-np", "2");
            // the sites give the ranks: the first context takes what the others leave
            case "sites" -> List.of("--site", "ocean:2", "--site", "atmosphere:3", "--site-launcher", "ocean=weft",
                    "--site-launcher", "atmosphere=weft");
            default -> List.of("-np", "2");
        });
        command.addAll(List.of("-cp", cp, "-x", "ROLE=none", ShowApp.class.getName(), "ocean", ":", "-np", "3",
                "-cp", cp, "-x", "ROLE=air", ShowApp.class.getName(), "atmosphere"));
        WeftrunJob.Result result = WeftrunJob.of(command.toArray(String[]::new)).timeout(Duration.ofSeconds(120))
                .start();
        assertEquals(0, result.exitCode(), result.output());
        Matcher m = APP.matcher(result.stdout());
        int seen = 0;
        while (m.find()) {
            int rank = Integer.parseInt(m.group(2));
            boolean ocean = rank < 2;
            assertEquals(ocean ? "ocean" : "atmosphere", m.group(1), m.group());
            assertEquals(ocean ? "0" : "1", m.group(3), "APPNUM: " + m.group());
            assertEquals(ocean ? "2" : "3", m.group(4), "maxprocs: " + m.group());
            assertEquals(ShowApp.class.getName(), m.group(5), m.group());
            assertEquals(m.group(1), m.group(6), "argv: " + m.group());
            assertEquals(ocean ? "none" : "air", m.group(7), "each context's -x: " + m.group());
            assertTrue(Integer.parseInt(m.group(8)) >= 5, "UNIVERSE_SIZE: " + m.group());
            seen++;
        }
        assertEquals(5, seen, result.output());
        for (int rank = 0; rank < 5; rank++) {
            String expected = rank < 2 ? "size 3 sum 9" : "size 2 sum 1"; // the other context's world ranks
            assertTrue(result.stdout().contains("rank " + rank + " " + expected), rank + ": " + result.output());
        }
    }
}
