package org.weft.launcher.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * A relay process the job runs: on {@code host} ({@code ""}: this host), serving the ranks of {@code site}
 * ({@code weftrun --relay SITE=HOST}, or {@code HOST gateway=SITE} in a hostfile), usually a site's gateway: the one
 * host of the site that reaches the other sites.
 */
public record RelayPlacement(String site, String host) {
    public RelayPlacement {
        if (site.isEmpty()) {
            throw new IllegalArgumentException("a relay needs its site: --relay SITE=HOST");
        }
    }

    /** {@code SITE=HOST}, or {@code SITE} alone for this host. */
    public static RelayPlacement parse(String option) {
        int eq = option.indexOf('=');
        return eq < 0 ? new RelayPlacement(option.strip(), "")
                : new RelayPlacement(option.substring(0, eq).strip(), option.substring(eq + 1).strip());
    }

    /**
     * Checks {@code relays} against the job's {@code sites}: each names a site of the job, and no site has two.
     * Throws {@link IllegalArgumentException} saying what is wrong.
     */
    public static List<RelayPlacement> checked(List<RelayPlacement> relays, List<Site> sites) {
        List<String> seen = new ArrayList<>();
        for (RelayPlacement relay : relays) {
            if (sites.stream().noneMatch(site -> site.name().equals(relay.site()))) {
                throw new IllegalArgumentException("--relay " + relay.site() + ": the job has no site "
                        + relay.site() + " (relays serve the sites of --site or of a hostfile)");
            }
            if (seen.contains(relay.site())) {
                throw new IllegalArgumentException("--relay: site " + relay.site() + " has two relays");
            }
            seen.add(relay.site());
        }
        return List.copyOf(relays);
    }
}
