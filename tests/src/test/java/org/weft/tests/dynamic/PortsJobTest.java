package org.weft.tests.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.JoinProgram;
import org.weft.tests.programs.PortsProgram;

/**
 * Ports and names in real jobs: one group opens a port, publishes it through the launcher and accepts, the other
 * looks it up and connects, and the two exchange over the intercommunicator; the error classes MPI names for
 * ports and names (ERR_PORT, ERR_NAME, ERR_SERVICE) under {@code ERRORS_RETURN}; at 2 and 4 processes, on the
 * default methods (shm inside the job; the groups meet over tcp started for them) and on tcp; and
 * {@code Comm.join} over a socket.
 */
class PortsJobTest {
    @ParameterizedTest(name = "{0} processes, {1}")
    @CsvSource({"4, default", "2, tcp"})
    void twoGroupsMeetThroughAPublishedPort(int np, String methods) throws Exception {
        List<String> command = new ArrayList<>();
        if (methods.equals("tcp")) {
            command.addAll(List.of("--methods", "tcp"));
        }
        command.addAll(List.of("-np", Integer.toString(np), PortsProgram.class.getName()));
        WeftrunJob.Result result = WeftrunJob.of(command.toArray(String[]::new)).timeout(Duration.ofSeconds(90))
                .start();
        assertEquals(0, result.exitCode(), result.output());
        int half = np / 2;
        int serverSum = (half - 1) * half / 2;
        int clientSum = (np - 1) * np / 2 - serverSum;
        for (int rank = 0; rank < np; rank++) {
            boolean server = rank < half;
            String line = "SIDE " + (server ? "server" : "client") + " rank " + rank + " remote " + half + " sum "
                    + (server ? clientSum : serverSum);
            assertTrue(result.stdout().contains(line), line + "\n" + result.output());
        }
        for (String error : List.of("publish twice class 48", "close a port never opened class 43",
                "look up a name nobody published class 38", "unpublish a name not published class 48",
                "connect to a garbled port class 43", "connect to another job's port class 43",
                "close a closed port class 43")) {
            assertTrue(result.stdout().contains("ERROR " + error), error + "\n" + result.output());
        }
    }

    @Test
    void twoProcessesJoinOverASocket() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", JoinProgram.class.getName())
                .timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("JOINED rank 0 remote 1 got 101"), result.output());
        assertTrue(result.stdout().contains("JOINED rank 1 remote 1 got 100"), result.output());
    }
}
