package org.weft.tests.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.SpawnParent;

/**
 * {@code Intracomm.spawn}/{@code spawnMultiple} in real jobs: weftrun starts the children with the parents' class
 * path, they form a world of their own with {@code getParent()} to the parents, data goes both ways over the
 * intercommunicator, both sides disconnect and the job ends 0; at 1 and 2 parents, 2 to 4 children, on the
 * default methods (the parents then start tcp only for the children) and on tcp. A class that is not there is
 * {@code ERR_SPAWN} and the job goes on; a child's abort ends the job and leaves no process behind.
 */
class SpawnJobTest {
    private static final Pattern CHILD = Pattern.compile("CHILD (\\d) of (\\d) appnum (\\d) arg (\\w+) parents (\\d) "
            + "got 4242");

    @ParameterizedTest(name = "{0} parents spawn {1} ({2}, {3})")
    @CsvSource({"2, 4, default, single", "1, 2, tcp, single", "2, 3, default, multiple"})
    void childrenMeetTheirParents(int parents, int children, String methods, String mode) throws Exception {
        List<String> command = new ArrayList<>();
        if (methods.equals("tcp")) {
            command.addAll(List.of("--methods", "tcp"));
        }
        command.addAll(List.of("-np", Integer.toString(parents), SpawnParent.class.getName(),
                Integer.toString(children), mode));
        WeftrunJob.Result result = WeftrunJob.of(command.toArray(String[]::new)).timeout(Duration.ofSeconds(120))
                .start();
        assertEquals(0, result.exitCode(), result.output());
        Matcher m = CHILD.matcher(result.stdout());
        int seen = 0;
        int rankSum = 0;
        while (m.find()) {
            int rank = Integer.parseInt(m.group(1));
            assertEquals(children, Integer.parseInt(m.group(2)), "the children's COMM_WORLD: " + m.group());
            assertEquals(Integer.toString(parents), m.group(5), "getParent's remote group: " + m.group());
            boolean first = mode.equals("multiple") && rank == 0;
            assertEquals(mode.equals("multiple") && !first ? "1" : "0", m.group(3), "APPNUM: " + m.group());
            assertEquals(mode.equals("single") ? "only" : first ? "first" : "second", m.group(4), m.group());
            rankSum += rank;
            seen++;
        }
        assertEquals(children, seen, result.output());
        assertTrue(result.stdout().contains("PARENT children's ranks sum " + rankSum), result.output());
        assertTrue(result.stdout().contains("SPAWNED " + children + " in "), result.output());
        assertFalse(result.stdout().contains("parent null false"), "the parents have no parent: " + result.output());
    }

    @Test
    void aMissingClassIsErrSpawnAndTheJobGoesOn() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", SpawnParent.class.getName(), "2", "missing")
                .timeout(Duration.ofSeconds(90)).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("PARENT 0 spawn failed class 50"), result.output());
        assertTrue(result.stdout().contains("PARENT 1 spawn failed class 50"), "every parent: " + result.output());
    }

    @Test
    void aChildsAbortEndsTheJobAndLeavesNoProcess() throws Exception {
        String marker = "weft-leftover-" + UUID.randomUUID();
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", SpawnParent.class.getName(), "3", "abort", marker)
                .timeout(Duration.ofSeconds(90)).start();
        assertEquals(3, result.exitCode(), result.output());
        assertTrue(result.stderr().contains("aborted the job with code 3"), result.output());
        long left = ProcessHandle.allProcesses().filter(p -> p.info().arguments().map(a -> List.of(a)
                .contains(marker)).orElse(false)).count();
        assertEquals(0, left, "processes left behind");
    }
}
