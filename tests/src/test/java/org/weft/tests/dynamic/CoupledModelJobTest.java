package org.weft.tests.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.harness.WeftrunJob;

/**
 * The coupled model of the examples (Ocean, Atmosphere): two programs with their own decompositions exchange
 * their surface fields every step through an intercommunicator; heat moves from one to the other and its total is
 * conserved to rounding. In one MPMD job coupled by {@code MPI_Intercomm_create}, coupled through a published port,
 * and with each program on a site of its own (tcp between the sites).
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
        Matcher m = COUPLED.matcher(result.stdout());
        double[] moved = new double[2];
        int seen = 0;
        while (m.find()) {
            boolean ocean = m.group(1).equals("ocean");
            assertEquals(ocean ? oceanRanks : atmosphereRanks, Integer.parseInt(m.group(2)), m.group());
            assertTrue(Double.parseDouble(m.group(5)) < 1e-12, "heat is conserved: " + m.group());
            moved[ocean ? 0 : 1] = Double.parseDouble(m.group(7)) - Double.parseDouble(m.group(6));
            seen++;
        }
        assertEquals(2, seen, result.output());
        assertTrue(moved[0] < -1, "the ocean gives heat: " + result.output());
        assertEquals(-moved[0], moved[1], 1e-6 * Math.abs(moved[0]), "what one loses the other gains");
    }
}
