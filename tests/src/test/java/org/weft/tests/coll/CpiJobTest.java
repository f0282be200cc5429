package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.WeftrunJob;

/** The classic cpi example ({@code bcast} + {@code reduce}) as a real job of separate JVMs under weftrun. */
@Timeout(120)
class CpiJobTest {
    @Test
    void cpiOnFourRanksComputesPi() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "4", "Cpi", "100000").start();
        assertEquals(0, result.exitCode(), () -> "exit code; output:\n" + result.output());
        Matcher m = Pattern.compile("pi is approximately ([0-9.]+), Error is ([0-9.]+)").matcher(result.stdout());
        assertTrue(m.find(), result.output());
        assertEquals(Math.PI, Double.parseDouble(m.group(1)), 1e-9, result.output());
    }
}
