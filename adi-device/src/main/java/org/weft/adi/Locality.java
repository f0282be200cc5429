package org.weft.adi;

/**
 * Where a rank runs: its site (a cluster with its own native MPI; {@code weftrun --site}) and its host. Collectives
 * use it to cross slow links once per site and once per host ({@code MPI_COMM_TYPE_SHARED} is "same host").
 *
 * @param site the site's name; the empty string when the job has no sites (all ranks in one)
 * @param host the host's identity (name and boot id: two containers on one machine differ)
 */
public record Locality(String site, String host) {
    public Locality {
        if (site == null || host == null) {
            throw new IllegalArgumentException("site and host must not be null");
        }
    }

    public boolean sameSite(Locality other) {
        return site.equals(other.site);
    }

    public boolean sameHost(Locality other) {
        return sameSite(other) && host.equals(other.host);
    }
}
