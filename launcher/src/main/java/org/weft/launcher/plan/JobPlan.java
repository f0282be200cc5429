package org.weft.launcher.plan;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One job as the user asked for it, independent of how ranks are started.
 *
 * @param apps the job's app contexts in rank order (one for an SPMD job): ranks 0..apps[0].np-1 run the first
 *             program, the next ones the second, and so on ({@code weftrun ... A : ... B}, as mpirun)
 * @param environment variables exported to every rank (from {@code -x} and {@code --param}), in order
 * @param jvmArgs extra JVM options for every rank ({@code -J}), before each app context's own
 * @param tagOutput whether each forwarded line is prefixed with its rank and stream
 * @param timeout the job's time limit, or {@code null} for none
 * @param sites the job's sites in rank order, covering ranks 0..np-1; empty for a job without sites
 * @param rankHosts the host of each rank, {@code ""} for this host ({@link HostPlacement}); empty when every rank
 *                  runs here
 */
public record JobPlan(List<AppContext> apps, Map<String, String> environment, List<String> jvmArgs,
                      boolean tagOutput, Duration timeout, List<Site> sites, List<String> rankHosts) {
    public JobPlan {
        apps = List.copyOf(apps);
        if (apps.isEmpty()) {
            throw new IllegalArgumentException("a job runs at least one program");
        }
        int np = apps.stream().mapToInt(AppContext::np).sum();
        rankHosts = List.copyOf(rankHosts);
        if (!rankHosts.isEmpty() && rankHosts.size() != np) {
            throw new IllegalArgumentException(rankHosts.size() + " rank hosts for " + np + " ranks");
        }
        sites = List.copyOf(sites);
        if (!sites.isEmpty() && sites.getLast().firstRank() + sites.getLast().np() != np) {
            throw new IllegalArgumentException("the sites hold " + (sites.getLast().firstRank()
                    + sites.getLast().np()) + " ranks, not " + np);
        }
        environment = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(environment));
        jvmArgs = List.copyOf(jvmArgs);
    }

    /** A job of one program placed on {@code rankHosts}. */
    public JobPlan(int np, List<String> classPath, String mainClass, List<String> programArgs,
                   Map<String, String> environment, List<String> jvmArgs, boolean tagOutput, Duration timeout,
                   List<Site> sites, List<String> rankHosts) {
        this(List.of(new AppContext(np, classPath, mainClass, programArgs, List.of())), environment, jvmArgs,
                tagOutput, timeout, sites, rankHosts);
    }

    /** A job of one program whose ranks are placed on the hosts its sites name. */
    public JobPlan(int np, List<String> classPath, String mainClass, List<String> programArgs,
                   Map<String, String> environment, List<String> jvmArgs, boolean tagOutput, Duration timeout,
                   List<Site> sites) {
        this(np, classPath, mainClass, programArgs, environment, jvmArgs, tagOutput, timeout, sites,
                HostPlacement.ofSites(sites));
    }

    /** A job of one program without sites, on this host. */
    public JobPlan(int np, List<String> classPath, String mainClass, List<String> programArgs,
                   Map<String, String> environment, List<String> jvmArgs, boolean tagOutput, Duration timeout) {
        this(np, classPath, mainClass, programArgs, environment, jvmArgs, tagOutput, timeout, List.of());
    }

    /** The number of ranks: those of every app context. */
    public int np() {
        int np = 0;
        for (AppContext app : apps) {
            np += app.np();
        }
        return np;
    }

    /** The index of the app context {@code rank} runs ({@code MPI.APPNUM}). */
    public int appNumOf(int rank) {
        int first = 0;
        for (int appNum = 0; appNum < apps.size(); appNum++) {
            first += apps.get(appNum).np();
            if (rank < first) {
                return appNum;
            }
        }
        throw new IllegalArgumentException("no rank " + rank + " in a job of " + first);
    }

    /** The app context {@code rank} runs. */
    public AppContext appOf(int rank) {
        return apps.get(appNumOf(rank));
    }

    /** The first rank of app context {@code appNum}. */
    public int firstRankOf(int appNum) {
        int first = 0;
        for (int i = 0; i < appNum; i++) {
            first += apps.get(i).np();
        }
        return first;
    }

    /** The class path of the first app context (the only one of an SPMD job). */
    public List<String> classPath() {
        return apps.getFirst().classPath();
    }

    /** The main class of the first app context (the only one of an SPMD job). */
    public String mainClass() {
        return apps.getFirst().mainClass();
    }

    /** The program arguments of the first app context (the only one of an SPMD job). */
    public List<String> programArgs() {
        return apps.getFirst().programArgs();
    }

    /** This plan with one more variable in every rank's environment (set by the launcher, e.g. the relays). */
    public JobPlan withVariable(String name, String value) {
        Map<String, String> more = new java.util.LinkedHashMap<>(environment);
        more.put(name, value);
        return new JobPlan(apps, more, jvmArgs, tagOutput, timeout, sites, rankHosts);
    }

    /** The host {@code rank} runs on: {@code ""} for this host. */
    public String hostOf(int rank) {
        return rankHosts.isEmpty() ? "" : rankHosts.get(rank);
    }

    /** Whether some rank runs on another host. */
    public boolean spansHosts() {
        return rankHosts.stream().anyMatch(host -> !host.isEmpty());
    }

    /** How many ranks run on {@code host} ({@code ""}: this host). */
    public int ranksOn(String host) {
        int count = 0;
        for (int rank = 0; rank < np(); rank++) {
            count += hostOf(rank).equals(host) ? 1 : 0;
        }
        return count;
    }

    /** The ranks on {@code rank}'s host before it: its local rank (Open MPI's {@code OMPI_COMM_WORLD_LOCAL_RANK}). */
    public int localRankOf(int rank) {
        int local = 0;
        for (int other = 0; other < rank; other++) {
            local += hostOf(other).equals(hostOf(rank)) ? 1 : 0;
        }
        return local;
    }

    /** The other hosts the job runs on, each once, in rank order. */
    public List<String> otherHosts() {
        return rankHosts.stream().filter(host -> !host.isEmpty()).distinct().toList();
    }

    /** The site of {@code rank}, or {@code null} in a job without sites. */
    public Site siteOf(int rank) {
        for (Site site : sites) {
            if (site.contains(rank)) {
                return site;
            }
        }
        return null;
    }
}
