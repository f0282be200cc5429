package org.weft.launcher.slurm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SLURM allocation {@code weftrun} runs in, read from the environment {@code salloc} and {@code sbatch} give
 * their command (as Open MPI's ras/slurm reads it): the nodes ({@code SLURM_JOB_NODELIST}, compressed as
 * {@link Hostlist} reads it), the tasks on each ({@code SLURM_TASKS_PER_NODE}: {@code 2(x3),1} is 2, 2, 2, 1) and
 * the node the command runs on ({@code SLURMD_NODENAME}; set in a batch script, not where {@code salloc} ran).
 * Inside a job step ({@code srun ... weftrun}) the step's nodes and tasks are the allocation.
 *
 * @param jobId the job's id ({@code SLURM_JOB_ID})
 * @param nodes the allocated nodes, in SLURM's order
 * @param tasksPerNode the tasks SLURM gave each node, in the same order
 * @param thisNode the node this process runs on, or {@code null} when it runs outside the allocation's nodes
 */
public record SlurmAllocation(String jobId, List<String> nodes, List<Integer> tasksPerNode, String thisNode) {
    /** One entry of {@code SLURM_TASKS_PER_NODE}: a count, and how many nodes have it. */
    private static final Pattern TASKS = Pattern.compile("\\s*([0-9]+)(?:\\(x([0-9]+)\\))?\\s*");

    public SlurmAllocation {
        nodes = List.copyOf(nodes);
        tasksPerNode = List.copyOf(tasksPerNode);
        if (nodes.isEmpty() || nodes.size() != tasksPerNode.size()) {
            throw new IllegalArgumentException("SLURM's environment has " + nodes.size() + " nodes " + nodes
                    + " but tasks for " + tasksPerNode.size() + " " + tasksPerNode);
        }
    }

    /**
     * The allocation this environment belongs to, or {@code null} outside one (no {@code SLURM_JOB_ID}).
     *
     * @throws IllegalArgumentException when SLURM's variables are missing or cannot be read, naming them
     */
    public static SlurmAllocation of(Map<String, String> environment) {
        String jobId = environment.get("SLURM_JOB_ID");
        if (jobId == null || jobId.isBlank()) {
            return null;
        }
        boolean inStep = environment.containsKey("SLURM_STEP_ID");
        String nodeVariable = inStep ? "SLURM_STEP_NODELIST" : "SLURM_JOB_NODELIST";
        String tasksVariable = inStep ? "SLURM_STEP_TASKS_PER_NODE" : "SLURM_TASKS_PER_NODE";
        String nodes = environment.getOrDefault(nodeVariable, environment.get("SLURM_NODELIST"));
        String tasks = environment.get(tasksVariable);
        if (nodes == null || tasks == null) {
            throw new IllegalArgumentException("SLURM job " + jobId + " without " + (nodes == null ? nodeVariable
                    : tasksVariable) + " in the environment: cannot tell the allocation's hosts and slots");
        }
        try {
            return new SlurmAllocation(jobId, Hostlist.expand(nodes), parseTasksPerNode(tasks),
                    environment.get("SLURMD_NODENAME"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("SLURM job " + jobId + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code SLURM_TASKS_PER_NODE}: counts separated by commas, a count followed by {@code (xN)} standing for N
     * nodes with that many tasks.
     */
    static List<Integer> parseTasksPerNode(String value) {
        List<Integer> tasks = new ArrayList<>();
        for (String entry : value.split(",")) {
            Matcher matcher = TASKS.matcher(entry);
            if (!matcher.matches()) {
                throw new IllegalArgumentException("SLURM_TASKS_PER_NODE=" + value + ": cannot read " + entry);
            }
            int count = Integer.parseInt(matcher.group(1));
            int repeat = matcher.group(2) == null ? 1 : Integer.parseInt(matcher.group(2));
            tasks.addAll(Collections.nCopies(repeat, count));
        }
        return tasks;
    }

    /**
     * The allocation's slots as {@code --host} gives them: each node once per task, in SLURM's order; the node this
     * process runs on is written {@code ""}, so its ranks start here rather than through {@code srun}.
     */
    public List<String> slots() {
        List<String> slots = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            String node = nodes.get(i);
            slots.addAll(Collections.nCopies(tasksPerNode.get(i), node.equals(thisNode) ? "" : node));
        }
        return slots;
    }
}
