package org.weft.mm.module;

import org.weft.adi.param.Parameters;
import org.weft.mm.spi.ModuleContext;
import org.weft.mm.stats.MethodCounters;
import org.weft.mm.spi.RsrSink;

/** A {@link ModuleContext} for one rank of a test job that lives inside one JVM. */
public record TestModuleContext(int rank, int size, String jobId, String secret, String hostName,
        Parameters parameters, RsrSink inbound, MethodCounters counters) implements ModuleContext {
    /** A context whose module counts into counters of its own, which the test may ignore. */
    public TestModuleContext(int rank, int size, String jobId, String secret, String hostName, Parameters parameters,
                             RsrSink inbound) {
        this(rank, size, jobId, secret, hostName, parameters, inbound, new MethodCounters("test"));
    }
}
