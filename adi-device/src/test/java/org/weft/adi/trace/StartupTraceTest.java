package org.weft.adi.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** The pieces of a start-up trace line: the time of day that lines up a job's processes, and the CPU used. */
class StartupTraceTest {
    @Test
    void timeOfDayIsUtcWithMilliseconds() {
        assertEquals("00:00:00.000", StartupTrace.timeOfDay(0));
        assertEquals("13:05:09.042", StartupTrace.timeOfDay(86_400_000L * 20_000 + 13 * 3_600_000 + 5 * 60_000
                + 9_042));
        assertEquals("23:59:59.999", StartupTrace.timeOfDay(-1));
    }

    @Test
    void cpuIsThisProcesssLiveThreadsTime() {
        long spentBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1_000_000;
        long cpu = StartupTrace.cpuMillis();
        // at least this thread's own CPU so far, at most the JVM's whole CPU (which also counts ended threads)
        assertTrue(cpu >= spentBefore, cpu + " ms, this thread alone " + spentBefore);
        long process = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1_000_000;
        assertTrue(cpu <= process + 1, cpu + " ms, the process " + process);
    }
}
