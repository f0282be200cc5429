package org.weft.tests.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.WeftrunJob;

/**
 * The N-body example (direct summation, leapfrog, an allgather of all positions every step) conserves energy and
 * ends with the positions and energy of one process running the same steps: inside a host, and between two sites
 * whose allgather crosses the path striped over parallel streams, as many as the communicator's {@code weft_streams}
 * asks for (its collectives take the key too, not only its point-to-point messages).
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class NBodyJobTest {
    /** 1536 particles: 12 KiB a rank's block over 3 ranks; 2e-6 of drift over these steps, bound 1e-4. */
    private static final String[] MODEL = {"n=1536", "steps=30", "dt=0.005", "eps=0.05", "drift=1e-4"};

    private static WeftrunJob.Result run(String streams, String... weftrunArgs) throws Exception {
        String[] program = {"-cp", WeftrunJob.classPath(), "nbody.NBody", "streams=" + streams};
        String[] args = new String[weftrunArgs.length + program.length + MODEL.length];
        System.arraycopy(weftrunArgs, 0, args, 0, weftrunArgs.length);
        System.arraycopy(program, 0, args, weftrunArgs.length, program.length);
        System.arraycopy(MODEL, 0, args, weftrunArgs.length + program.length, MODEL.length);
        WeftrunJob.Result result = WeftrunJob.of(args).start();
        assertEquals(0, result.exitCode(), result.output());
        Matcher energy = Pattern.compile("ENERGY initial (-0\\.2\\d+) final (-0\\.2\\d+) relative drift (\\S+) \\(bound"
                + " 1\\.0e-04\\) OK").matcher(result.stdout());
        assertTrue(energy.find(), result.output());
        assertTrue(Double.parseDouble(energy.group(3)) <= 1e-4, energy.group());
        assertTrue(result.stdout().contains("VERIFIED against the sequential run"), result.output());
        assertTrue(result.stdout().contains("positions identical"), result.output());
        return result;
    }

    @Test
    void threeRanksOnOneHostConserveEnergyAndMatchTheSequentialRun() throws Exception {
        WeftrunJob.Result result = run("path,1", "-np", "3");
        assertTrue(result.stdout().matches("(?s).*streams=path: median [0-9.]+ s a step, [0-9.]+ s of it the exchange"
                + " \\(15 steps\\).*streams=1: median .*"), result.output());
    }

    @Test
    void twoSitesStripeEachStepsExchangeOverTheCommunicatorsStreams() throws Exception {
        // eager up to 4 KiB and min=8k: each 12 KiB block of the allgather is a rendezvous striped in 4 KiB chunks
        WeftrunJob.Result result = run("2", "--report", "--site", "a:1", "--site", "b:2", "--site-launcher",
                "a=weft", "--site-launcher", "b=weft", "--param", "tcp_eager_limit=4k", "--path", "a:b",
                "streams=4,min=8k,chunk=4k");
        // the ring allgather crosses from rank 0 to rank 1 and from rank 2 to rank 0: 2 blocks a step each
        assertTrue(result.stdout().contains("rank 0: path a:b 8KiB-16KiB: 2 streams, 60 messages, 737280 bytes"),
                result.output());
        assertTrue(result.stdout().contains("rank 2: path b:a 8KiB-16KiB: 2 streams, 60 messages, 737280 bytes"),
                result.output());
    }
}
