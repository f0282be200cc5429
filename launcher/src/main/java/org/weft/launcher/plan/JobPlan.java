package org.weft.launcher.plan;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One job as the user asked for it, independent of how ranks are started.
 *
 * @param np number of ranks
 * @param classPath the user's class path entries (the jar, in {@code -jar} mode)
 * @param mainClass the class whose {@code main} each rank runs
 * @param programArgs arguments for the program, untouched
 * @param environment variables exported to every rank (from {@code -x} and {@code --param}), in order
 * @param jvmArgs extra JVM options for every rank ({@code -J})
 * @param tagOutput whether each forwarded line is prefixed with its rank and stream
 * @param timeout the job's time limit, or {@code null} for none
 * @param sites the job's sites in rank order, covering ranks 0..np-1; empty for a job without sites
 */
public record JobPlan(int np, List<String> classPath, String mainClass, List<String> programArgs,
                      Map<String, String> environment, List<String> jvmArgs, boolean tagOutput, Duration timeout,
                      List<Site> sites) {
    public JobPlan {
        if (np < 1) {
            throw new IllegalArgumentException("-np must be at least 1, not " + np);
        }
        sites = List.copyOf(sites);
        if (!sites.isEmpty() && sites.getLast().firstRank() + sites.getLast().np() != np) {
            throw new IllegalArgumentException("the sites hold " + (sites.getLast().firstRank()
                    + sites.getLast().np()) + " ranks, not " + np);
        }
        classPath = List.copyOf(classPath);
        programArgs = List.copyOf(programArgs);
        environment = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(environment));
        jvmArgs = List.copyOf(jvmArgs);
    }

    /** A job without sites. */
    public JobPlan(int np, List<String> classPath, String mainClass, List<String> programArgs,
                   Map<String, String> environment, List<String> jvmArgs, boolean tagOutput, Duration timeout) {
        this(np, classPath, mainClass, programArgs, environment, jvmArgs, tagOutput, timeout, List.of());
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
