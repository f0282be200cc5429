package org.weft.mm.select;

import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.stats.MethodCounters;

/**
 * The method chosen for one peer: the module, its communication object to that peer, and its counters; with the
 * module's limits read once, as every send consults them.
 */
public record Link(CommModule module, CommObject object, MethodCounters counters, long eagerLimit,
                   long maxRsrLength) {
    public Link(CommModule module, CommObject object, MethodCounters counters) {
        this(module, object, counters, module.eagerLimit(), module.maxRsrLength());
    }
}
