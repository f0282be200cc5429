package org.weft.tests.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.harness.WeftrunJob;

/**
 * The coupled model of the examples (Ocean, Atmosphere): two programs with their own decompositions exchange
 * their surface fields every step through an intercommunicator; heat moves from one to the other and its total is
 * conserved to rounding. In one MPMD job coupled by {@code MPI_Intercomm_create}, coupled through a published port,
 * with each program on a site of its own (tcp between the sites), and as two jobs started by two weftruns.
 */
class CoupledModelJobTest {
    private static final Pattern COUPLED = Pattern.compile("COUPLED (\\w+) ranks (\\d) grid 64x48 steps 6 heat "
            + "(\\S+) -> (\\S+) drift (\\S+) own (\\S+) -> (\\S+)");

    @ParameterizedTest(name = "{0}: ocean {1}, atmosphere {2}")
    @CsvSource({"mpmd, 2, 2", "ports, 2, 3", "sites, 1, 2"})
    void heatMovesAcrossTheCouplingAndIsConserved(String how, int oceanRanks, int atmosphereRanks)
            throws Exception {
        String cp = WeftrunJob.classPath();
        List<String> command = new ArrayList<>();
        String couple = how.equals("ports") ? "ports" : "mpmd";
        List<String> options = List.of("--nx", "64", "--ny", "48", "--steps", "6", "--couple", couple);
        if (how.equals("sites")) {
            command.addAll(List.of("--site", "ocean:" + oceanRanks, "--site", "atmosphere:" + atmosphereRanks,
                    "--site-launcher", "ocean=weft", "--site-launcher", "atmosphere=weft"));
        } else {
            command.addAll(List.of("-np", Integer.toString(oceanRanks)));
        }
        command.addAll(List.of("-cp", cp, "Ocean"));
        command.addAll(options);
        command.addAll(List.of(":", "-np", Integer.toString(atmosphereRanks), "-cp", cp, "Atmosphere"));
        command.addAll(options);
        WeftrunJob.Result result = WeftrunJob.of(command.toArray(String[]::new)).timeout(Duration.ofSeconds(120))
                .start();
        assertEquals(0, result.exitCode(), result.output());
        checkHeat(result.stdout(), result.output(), oceanRanks, atmosphereRanks);
    }

    /**
     * The ocean and the atmosphere as two jobs, started by two weftruns (jobs with different secrets): the ocean
     * writes its port's name to a file, the atmosphere reads it there and connects; heat is conserved as in one job.
     */
    @Test
    void asTwoJobsMeetingThroughAPortFileHeatIsConserved(@TempDir Path dir) throws Exception {
        String couple = "file:" + dir.resolve("ocean.port");
        List<String> options = List.of("--nx", "64", "--ny", "48", "--steps", "6", "--couple", couple);
        List<String> ocean = new ArrayList<>(List.of("-np", "2", "-cp", WeftrunJob.classPath(), "Ocean"));
        ocean.addAll(options);
        List<String> atmosphere = new ArrayList<>(List.of("-np", "3", "-cp", WeftrunJob.classPath(), "Atmosphere"));
        atmosphere.addAll(options);
        CompletableFuture<WeftrunJob.Result> oceanJob = CompletableFuture.supplyAsync(() -> {
            try {
                return WeftrunJob.of(ocean.toArray(String[]::new)).timeout(Duration.ofSeconds(120)).start();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        WeftrunJob.Result atmosphereJob = WeftrunJob.of(atmosphere.toArray(String[]::new))
                .timeout(Duration.ofSeconds(120)).start();
        WeftrunJob.Result oceanResult = oceanJob.get(150, TimeUnit.SECONDS);
        String both = oceanResult.output() + "\n---- atmosphere job\n" + atmosphereJob.output();
        assertEquals(0, oceanResult.exitCode(), both);
        assertEquals(0, atmosphereJob.exitCode(), both);
        assertTrue(oceanResult.stdout().contains("PORT weft-port:"), both);
        checkHeat(oceanResult.stdout() + atmosphereJob.stdout(), both, 2, 3);
    }

    /** One COUPLED line per program: its ranks, heat conserved, and what one gave the other got. */
    private static void checkHeat(String stdout, String output, int oceanRanks, int atmosphereRanks) {
        Matcher m = COUPLED.matcher(stdout);
        double[] moved = new double[2];
        int seen = 0;
        while (m.find()) {
            boolean ocean = m.group(1).equals("ocean");
            assertEquals(ocean ? oceanRanks : atmosphereRanks, Integer.parseInt(m.group(2)), m.group());
            assertTrue(Double.parseDouble(m.group(5)) < 1e-12, "heat is conserved: " + m.group());
            moved[ocean ? 0 : 1] = Double.parseDouble(m.group(7)) - Double.parseDouble(m.group(6));
            seen++;
        }
        assertEquals(2, seen, output);
        assertTrue(moved[0] < -1, "the ocean gives heat: " + output);
        assertEquals(-moved[0], moved[1], 1e-6 * Math.abs(moved[0]), "what one loses the other gains");
    }
}
