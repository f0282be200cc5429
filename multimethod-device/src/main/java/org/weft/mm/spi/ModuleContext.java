package org.weft.mm.spi;

import org.weft.adi.param.Parameters;
import org.weft.mm.stats.MethodCounters;
import org.weft.mm.DeviceParameters;

/** What a module learns of the process it serves when it starts. */
public interface ModuleContext {
    /** This process's world rank. */
    int rank();

    int size();

    /**
     * One more than the highest job rank a peer may have: the world's size, or more in a device whose world may
     * grow (spawned worlds' ranks follow the first world's). Arrays by peer rank are this long.
     */
    default int rankLimit() {
        return size();
    }

    /** The job's id: peers of another job are never applicable. */
    String jobId();

    /** The per-job secret a connection must prove before any RSR it carries is delivered. */
    String secret();

    /**
     * What a connection to {@code peerRank} proves and names (its HELLO, its TLS certificates): by default this
     * job's ranks, id and secret; a process of another job met through a port is known by a rank of this job and
     * proves the port link's key instead ({@link PeerCredentials}).
     */
    default PeerCredentials credentialsWith(int peerRank) {
        return new PeerCredentials(rank(), peerRank, jobId(), secret(), false);
    }

    /** The host's name, as peers compare it (e.g. for shared memory). */
    String hostName();

    Parameters parameters();

    /** Whether every rank of the job runs on this host (the launcher is reached over loopback). */
    default boolean isOneHostJob() {
        return true;
    }

    /**
     * The site (cluster) this process belongs to, the empty string when the job has no sites. Methods that only
     * make sense inside one site (shared memory, native MPI) apply only between processes of the same site, so that
     * a job emulating several sites on one machine still crosses sites on the wide-area methods.
     */
    default String site() {
        return parameters().get(DeviceParameters.SITE);
    }

    /**
     * The site of world rank {@code rank}, as its business card says; known once the cards are exchanged (before
     * any {@code connect}), this process's own site until then. A method tells a wide-area peer by it.
     */
    default String siteOf(int rank) {
        return site();
    }

    /**
     * Says that the module holds RSRs back (aggregation): the next wait of any thread of this process calls
     * {@link CommModule#flush()} before it waits. Cheap (one volatile write); call it whenever a send is held.
     */
    default void holdingSends() {
    }

    /**
     * Says that the module lost its connection to {@code rank} for good while both were running (reset, closed
     * without a goodbye, a garbled frame, a TLS record that failed its check): the device fails every operation
     * that waits on that peer, and every later one, with {@code why} (a line naming the peer and what happened),
     * so that nothing waits forever for a peer it can no longer hear.
     */
    default void peerLost(int rank, String why) {
    }

    /** Where the module hands arriving RSRs. */
    RsrSink inbound();

    /**
     * The counters of this module's method. The module counts its own traffic, where it serialises anyway: each
     * link its sends under its send lock, each poller its deliveries under its token, in cells it takes once
     * ({@link MethodCounters#newTraffic()}).
     */
    MethodCounters counters();
}
