package org.weft.launcher.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.weft.adi.bootstrap.LauncherRequests.Command;
import org.weft.adi.bootstrap.LauncherRequests.SpawnSpec;

/** How the processes of a spawn are planned: their world's variables, class path, hosts and site; nothing runs. */
class SpawnPlanTest {
    private static final JobIdentity JOB = new JobIdentity("job-1", "cafe", "10.0.0.1:4000");
    private static final RankCommands COMMANDS = new RankCommands("/jdk/bin/java", List.of("weft.jar"));
    private static final AppContext ROOT_APP = new AppContext(2, List.of("app.jar"), "Parent", List.of(),
            List.of("-Xmx64m"), Map.of("ROLE", "parent"));

    @Test
    void aSpawnIsANewWorldAfterTheJobsRanksWithTheRootsClassPathAndHost() {
        JobPlan job = new JobPlan(2, List.of("app.jar"), "Parent", List.of(), Map.of("X", "1"), List.of(), false,
                (Duration) null);
        SpawnSpec spec = new SpawnSpec(1, List.of(new Command("Child", List.of("a", "b"), 2, Map.of()),
                new Command("Other", List.of(), 1, Map.of("classpath", "other.jar", "env", "K=v\nL=w"))));
        List<RankLaunch> launches = SpawnPlan.launches(job, new SpawnPlan.Root(ROOT_APP, "", ""), COMMANDS, JOB,
                null, spec, 5);
        assertEquals(List.of(5, 6, 7), launches.stream().map(RankLaunch::rank).toList());
        RankLaunch first = launches.getFirst();
        assertEquals("5", first.environment().get("WEFT_RANK"), "its job rank");
        assertEquals("3", first.environment().get("WEFT_SIZE"), "its world's size");
        assertEquals("5", first.environment().get("WEFT_WORLD_FIRST_RANK"));
        assertEquals("1", first.environment().get("WEFT_PARENT"), "the root's job rank");
        assertEquals("0", first.environment().get("WEFT_APPNUM"));
        assertEquals("cafe", first.environment().get("WEFT_SECRET"), "the job's secret: children prove membership");
        assertEquals("1", first.environment().get("X"), "the job's variables");
        assertEquals("parent", first.environment().get("ROLE"), "the root's app context's variables");
        assertEquals(List.of("-Xmx64m", "-cp", "weft.jar:app.jar", "Child", "a", "b"), tail(first.command(), 6));
        RankLaunch other = launches.get(2);
        assertEquals("1", other.environment().get("WEFT_APPNUM"), "each command its own APPNUM");
        assertEquals("v", other.environment().get("K"));
        assertEquals("w", other.environment().get("L"));
        assertEquals(List.of("-cp", "weft.jar:other.jar", "Other"), tail(other.command(), 3), "info classpath");
        assertEquals(List.of("", "", ""), launches.stream().map(RankLaunch::host).toList(), "the root's host");
    }

    @Test
    void overHostsChildrenGoRoundTheJobsHostsFromTheRootsUnlessTheInfoNamesOne() {
        JobPlan job = new JobPlan(4, List.of("app.jar"), "Parent", List.of(), Map.of(), List.of(), false, null,
                List.of(), List.of("n1", "n1", "n2", "n3"));
        SpawnSpec spec = new SpawnSpec(2, List.of(new Command("Child", List.of(), 4, Map.of()),
                new Command("Pinned", List.of(), 1, Map.of("host", "n9"))));
        List<RankLaunch> launches = SpawnPlan.launches(job, new SpawnPlan.Root(ROOT_APP, "n2", "east"), COMMANDS,
                JOB, null, spec, 4);
        assertEquals(List.of("n2", "n3", "n1", "n2", "n9"), launches.stream().map(RankLaunch::host).toList());
        assertEquals("east", launches.getFirst().environment().get("WEFT_SITE"), "the root's site");
        assertEquals("rank 4 of site east on n2", launches.getFirst().describe());
    }

    private static List<String> tail(List<String> command, int n) {
        return command.subList(command.size() - n, command.size());
    }
}
