package org.weft.mm.module.tcp;

import org.weft.adi.param.Parameters;
import org.weft.mm.spi.ModuleContext;
import org.weft.mm.spi.RsrSink;
import org.weft.mm.stats.MethodCounters;

/**
 * A test rank's context in a job with sites: {@code sites[r]} is rank r's; {@code lost} gets a line
 * {@code "PEER: WHY"} for each peer the module says it lost.
 */
record SitedContext(ModuleContext base, String[] sites, java.util.Queue<String> lost) implements ModuleContext {
    @Override
    public int rank() {
        return base.rank();
    }

    @Override
    public int size() {
        return base.size();
    }

    @Override
    public String jobId() {
        return base.jobId();
    }

    @Override
    public String secret() {
        return base.secret();
    }

    @Override
    public String hostName() {
        return base.hostName();
    }

    @Override
    public Parameters parameters() {
        return base.parameters();
    }

    @Override
    public String site() {
        return sites[rank()];
    }

    @Override
    public String siteOf(int rank) {
        return sites[rank];
    }

    @Override
    public RsrSink inbound() {
        return base.inbound();
    }

    @Override
    public MethodCounters counters() {
        return base.counters();
    }

    @Override
    public void peerLost(int rank, String why) {
        lost.add(rank + ": " + why);
    }
}
