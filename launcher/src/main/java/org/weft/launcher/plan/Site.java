package org.weft.launcher.plan;

import java.nio.file.Path;
import java.util.List;

/**
 * One site of a job: a named group of ranks with contiguous global ranks, started either by the site's own
 * native {@code mpirun} (one process for all its ranks) or by Weft's agent (one process per rank).
 *
 * @param name the site's name, given to its ranks as {@code WEFT_SITE}
 * @param firstRank the global rank of the site's first rank
 * @param np how many ranks the site has
 * @param hosts the hosts the user named for the site (empty: this host)
 * @param mpirun the {@code mpirun} that starts the site, or {@code null} when Weft's agent starts each rank
 */
public record Site(String name, int firstRank, int np, List<String> hosts, Path mpirun) {
    public Site {
        if (np < 1) {
            throw new IllegalArgumentException("site " + name + " needs at least one rank, not " + np);
        }
        hosts = List.copyOf(hosts);
    }

    /** Whether the site is started by a native {@code mpirun}. */
    public boolean isNative() {
        return mpirun != null;
    }

    /** Whether global rank {@code rank} belongs to this site. */
    public boolean contains(int rank) {
        return rank >= firstRank && rank < firstRank + np;
    }
}
