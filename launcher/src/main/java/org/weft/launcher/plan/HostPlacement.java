package org.weft.launcher.plan;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.weft.adi.net.HostAddresses;

/**
 * Which host each rank runs on, as {@code mpirun} maps by slot: a list of slots (a host appears once per slot) is
 * filled in order, and wraps around when the job has more ranks than slots (weftrun oversubscribes, as its ranks
 * back off when they wait). A host that is this one is written {@code ""}: its ranks start here without a remote
 * shell.
 */
public final class HostPlacement {
    private HostPlacement() {
    }

    /** The host of each of {@code np} ranks placed by slot on {@code slots} ({@code ""} for this host). */
    public static List<String> bySlot(List<String> slots, int np) {
        List<String> hosts = new ArrayList<>(np);
        for (int rank = 0; rank < np; rank++) {
            hosts.add(slots.isEmpty() ? "" : placed(slots.get(rank % slots.size())));
        }
        return hosts;
    }

    /** The host of every rank of a job with {@code sites}, each site's ranks placed by slot on its own hosts. */
    public static List<String> ofSites(List<Site> sites) {
        List<String> hosts = new ArrayList<>();
        for (Site site : sites) {
            hosts.addAll(bySlot(site.hosts(), site.np()));
        }
        return hosts;
    }

    /**
     * The slots of {@code --host HOST[:SLOTS],...} (Open MPI's syntax: a host without a count has one slot).
     *
     * @throws IllegalArgumentException for an empty host or a count that is not a whole number of at least 1
     */
    public static List<String> parseHosts(String option) {
        List<String> slots = new ArrayList<>();
        for (String entry : option.split(",", -1)) {
            int colon = entry.lastIndexOf(':');
            String host = colon < 0 ? entry : entry.substring(0, colon);
            int count = colon < 0 ? 1 : SiteLayout.positive(entry.substring(colon + 1), "--host " + option, "SLOTS");
            if (host.isBlank()) {
                throw new IllegalArgumentException("--host " + option + ": an empty host name");
            }
            slots.addAll(Collections.nCopies(count, host));
        }
        return slots;
    }

    /** {@code ""} when {@code host} is this host, else {@code host}. */
    static String placed(String host) {
        return isThisHost(host) ? "" : host;
    }

    static boolean isThisHost(String host) {
        if (HostAddresses.isLoopback(host)) {
            return true;
        }
        try {
            InetAddress local = InetAddress.getLocalHost();
            return host.equals(local.getHostName()) || host.equals(local.getCanonicalHostName())
                    || host.equals(local.getHostAddress());
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
