package org.weft.mm;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.weft.adi.DynamicProcesses.ForeignGroup;
import org.weft.mm.spi.PeerCredentials;

/**
 * The processes of other jobs this process knows, by the job rank it knows each by (an alias reserved at its own
 * launcher), with the credentials of a connection to each ({@link PeerCredentials}): looked up when a connection
 * is made or its HELLO checked, never per message. Thread-safe.
 */
final class ForeignPeers {
    private final ConcurrentMap<Integer, PeerCredentials> byAlias = new ConcurrentHashMap<>();

    /** Records every process of {@code group}. */
    void add(ForeignGroup group) {
        for (int i = 0; i < group.ranksThere().length; i++) {
            byAlias.put(group.firstAlias() + i, new PeerCredentials(group.myRankThere(), group.ranksThere()[i],
                    group.jobId(), group.linkKey(), true));
        }
    }

    /** The credentials of a connection to {@code alias}, or {@code null} when it is no other job's process. */
    PeerCredentials of(int alias) {
        return byAlias.isEmpty() ? null : byAlias.get(alias);
    }
}
