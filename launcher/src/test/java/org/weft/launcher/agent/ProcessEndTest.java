package org.weft.launcher.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.weft.launcher.plan.RankLaunch;

/** How a process ended, from Java's status and, where Linux keeps it, the real wait status. */
class ProcessEndTest {
    @Test
    void theWaitStatusTellsASignalFromAnExitCodeThatJavaReportsAlike() {
        ProcessEnd killed = ProcessEnd.of(137, 9);
        assertEquals(new ProcessEnd(ProcessEnd.Kind.KILLED, 137), killed);
        assertEquals("was killed by signal 9 (SIGKILL)", killed.describe(true));
        ProcessEnd exited = ProcessEnd.of(137, 137 << 8);
        assertEquals(new ProcessEnd(ProcessEnd.Kind.EXITED, 137), exited);
        assertEquals("exited with code 137", exited.describe(true));
        assertEquals("was killed by signal 11 (SIGSEGV)", ProcessEnd.of(139, 0x80 | 11).describe(false));
    }

    @Test
    void withoutTheWaitStatusAStatusAbove128IsSaidToBeEither() {
        ProcessEnd untold = ProcessEnd.of(137, -1);
        assertEquals(new ProcessEnd(ProcessEnd.Kind.UNTOLD, 137), untold);
        assertEquals("ended with status 137 (killed by signal 9 (SIGKILL), or exit code 137: this system does not"
                + " say which)", untold.describe(true));
        assertEquals("exited with code 3", ProcessEnd.of(3, -1).describe(true));
        assertEquals("exited with code 255", ProcessEnd.of(255, -1).describe(false), "no signal has number 127");
    }

    @Test
    void aJvmsExitAfterSigtermIsNamedSoForJvmsOnly() {
        assertEquals("exited with code 143, as a JVM does after SIGTERM", ProcessEnd.of(143, 143 << 8).describe(true));
        assertEquals("exited with code 130, as a JVM does after SIGINT", ProcessEnd.of(130, 130 << 8).describe(true));
        assertEquals("exited with code 143", ProcessEnd.of(143, 143 << 8).describe(false));
        assertEquals("exited with code 137", ProcessEnd.of(137, 137 << 8).describe(true));
    }

    /** On Linux 6.15 and later (the CI's machine) the kernel keeps the status for a pidfd, after Java reaped it. */
    @Test
    void aPidfdGivesTheRealEndOfAChildThatJavaHasReaped() throws Exception {
        assumeTrue(System.getProperty("os.name").equals("Linux") && kernelAtLeast(6, 15), "needs Linux 6.15");
        assertEquals(9, waitStatusOf("kill -9 $$"));
        assertEquals(137 << 8, waitStatusOf("exit 137"));
        assertEquals(3 << 8, waitStatusOf("exit 3"));
    }

    /**
     * A rank started by {@link LocalAgent} has its pidfd opened by another thread (binding libc's calls took the
     * launcher ~55 ms, which delayed every rank after the first): its end is still told for what it was.
     */
    @Test
    void aStartedProcessEndIsToldThroughAPidfdOpenedInTheBackground() throws Exception {
        assumeTrue(System.getProperty("os.name").equals("Linux") && kernelAtLeast(6, 15), "needs Linux 6.15");
        LocalAgent.prepare();
        assertEquals("was killed by signal 9 (SIGKILL)", endOf("sleep 3; kill -9 $$").describe(true));
        assertEquals("exited with code 137", endOf("sleep 3; exit 137").describe(false));
    }

    private static ProcessEnd endOf(String script) throws Exception {
        RankProcess rank = new LocalAgent().start(new RankLaunch(0, List.of("sh", "-c", script), Map.of()));
        return rank.onExit().get(60, TimeUnit.SECONDS);
    }

    private static int waitStatusOf(String script) throws Exception {
        Process process = new ProcessBuilder("sh", "-c", "sleep 0.1; " + script).start();
        PidfdExit pidfd = PidfdExit.open(process);
        assertNotNull(pidfd, "a pidfd (the surefire JVM runs with native access)");
        try (pidfd) {
            process.waitFor();
            return pidfd.waitStatus();
        }
    }

    private static boolean kernelAtLeast(int major, int minor) {
        String[] parts = System.getProperty("os.version").split("[.-]");
        int kernelMajor = Integer.parseInt(parts[0]);
        return kernelMajor > major || kernelMajor == major && Integer.parseInt(parts[1]) >= minor;
    }
}
