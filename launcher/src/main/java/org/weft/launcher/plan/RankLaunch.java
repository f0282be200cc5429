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
 * @param mpirun whose {@code mpirun} the process is when it is a native site's (which tags output its own way),
 *               else {@code null}
 * @param host the host the process runs on, {@code ""} for this host
 */
public record RankLaunch(int rank, int count, String site, MpirunFlavour mpirun, String host, List<String> command,
                         Map<String, String> environment) {
    public RankLaunch {
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
    }

    /** The launch of a single rank outside any site. */
    public RankLaunch(int rank, List<String> command, Map<String, String> environment) {
        this(rank, 1, "", null, "", command, environment);
    }

    /** Whether the process runs on another host, through the remote shell. */
    public boolean isRemote() {
        return !host.isEmpty();
    }

    /** The same launch with another command line (a remote shell's, which carries the environment itself). */
    public RankLaunch withCommand(List<String> otherCommand, Map<String, String> otherEnvironment) {
        return new RankLaunch(rank, count, site, mpirun, host, otherCommand, otherEnvironment);
    }

    /** Whether the process is a native site's {@code mpirun}, carrying all the site's ranks. */
    public boolean viaMpirun() {
        return mpirun != null;
    }

    private String onHost() {
        return host.isEmpty() ? "" : " on " + host;
    }

    /** Whether the process is a relay (it carries no rank: {@code count} 0). */
    public boolean isRelay() {
        return count == 0;
    }

    /**
     * How messages name the process: {@code rank 3}, {@code rank 3 of site b}, {@code the mpirun of site b}, or
     * {@code the relay of site b}.
     */
    public String describe() {
        if (isRelay()) {
            return "the relay of site " + site + onHost();
        }
        if (viaMpirun()) {
            return "the mpirun of site " + site + ", ranks " + rank + "-" + (rank + count - 1) + onHost();
        }
        return (site.isEmpty() ? "rank " + rank : "rank " + rank + " of site " + site) + onHost();
    }
}
