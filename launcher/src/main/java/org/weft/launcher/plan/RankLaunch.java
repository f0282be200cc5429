package org.weft.launcher.plan;

import java.util.List;
import java.util.Map;

/**
 * Everything needed to start one process of the job: its command line and the environment to add to the
 * launcher's own. The process carries global ranks {@code rank .. rank + count - 1}: one rank when Weft's agent
 * starts it, a whole site when it is that site's {@code mpirun}.
 *
 * @param rank the first global rank the process carries
 * @param count how many ranks it carries
 * @param site the name of its site ({@code ""} in a job without sites)
 * @param viaMpirun whether the process is a native site's {@code mpirun} (which tags output its own way)
 */
public record RankLaunch(int rank, int count, String site, boolean viaMpirun, List<String> command,
                         Map<String, String> environment) {
    public RankLaunch {
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
    }

    /** The launch of a single rank outside any site. */
    public RankLaunch(int rank, List<String> command, Map<String, String> environment) {
        this(rank, 1, "", false, command, environment);
    }

    /** How messages name the process: {@code rank 3}, {@code rank 3 of site b}, or {@code the mpirun of site b}. */
    public String describe() {
        if (viaMpirun) {
            return "the mpirun of site " + site + ", ranks " + rank + "-" + (rank + count - 1);
        }
        return site.isEmpty() ? "rank " + rank : "rank " + rank + " of site " + site;
    }
}
