package org.weft.launcher.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The allocation as salloc and sbatch describe it in their command's environment. */
class SlurmAllocationTest {
    @Test
    void outsideAJobThereIsNoAllocation() {
        assertNull(SlurmAllocation.of(Map.of("HOME", "/root")));
    }

    @Test
    void tasksPerNodeRepeatWhereSlurmWritesXn() {
        assertEquals(List.of(2, 2, 2, 1), SlurmAllocation.parseTasksPerNode("2(x3),1"));
        assertEquals(List.of(4), SlurmAllocation.parseTasksPerNode("4"));
    }

    @Test
    void aBatchScriptsOwnNodeIsThisHostAndTheOthersAreNamed() {
        SlurmAllocation allocation = SlurmAllocation.of(Map.of("SLURM_JOB_ID", "12",
                "SLURM_JOB_NODELIST", "n[1-3]", "SLURM_TASKS_PER_NODE", "2(x2),1", "SLURMD_NODENAME", "n2"));
        assertEquals("12", allocation.jobId());
        assertEquals(List.of("n1", "n1", "", "", "n3"), allocation.slots());
    }

    @Test
    void wheresallocRanNoNodeIsThisHost() {
        SlurmAllocation allocation = SlurmAllocation.of(Map.of("SLURM_JOB_ID", "7",
                "SLURM_JOB_NODELIST", "sl-n[1-2]", "SLURM_TASKS_PER_NODE", "2,1"));
        assertEquals(List.of("sl-n1", "sl-n1", "sl-n2"), allocation.slots());
    }

    @Test
    void insideAStepTheStepsNodesAndTasksCount() {
        SlurmAllocation allocation = SlurmAllocation.of(Map.of("SLURM_JOB_ID", "7", "SLURM_STEP_ID", "0",
                "SLURM_JOB_NODELIST", "n[1-4]", "SLURM_TASKS_PER_NODE", "1(x4)",
                "SLURM_STEP_NODELIST", "n1", "SLURM_STEP_TASKS_PER_NODE", "3", "SLURMD_NODENAME", "n1"));
        assertEquals(List.of("", "", ""), allocation.slots());
    }

    @Test
    void anEnvironmentThatDoesNotAddUpIsRefusedNamingTheJob() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> SlurmAllocation.of(
                Map.of("SLURM_JOB_ID", "5", "SLURM_JOB_NODELIST", "n1")));
        assertTrue(missing.getMessage().contains("SLURM job 5") && missing.getMessage()
                .contains("SLURM_TASKS_PER_NODE"), missing.getMessage());
        IllegalArgumentException mismatch = assertThrows(IllegalArgumentException.class, () -> SlurmAllocation.of(
                Map.of("SLURM_JOB_ID", "5", "SLURM_JOB_NODELIST", "n[1-2]", "SLURM_TASKS_PER_NODE", "1")));
        assertTrue(mismatch.getMessage().contains("2 nodes"), mismatch.getMessage());
        IllegalArgumentException garbled = assertThrows(IllegalArgumentException.class, () -> SlurmAllocation.of(
                Map.of("SLURM_JOB_ID", "5", "SLURM_JOB_NODELIST", "n1", "SLURM_TASKS_PER_NODE", "2(3)")));
        assertTrue(garbled.getMessage().contains("2(3)"), garbled.getMessage());
    }
}
