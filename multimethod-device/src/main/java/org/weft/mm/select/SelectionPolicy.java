package org.weft.mm.select;

import org.weft.mm.DescriptorTable;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.stats.MethodCounters;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Picks the method for a peer (STYLE.md #4): walk this process's modules in the user's order, skip those the
 * peer's table does not offer, and take the first whose {@code connect} says it applies and whose link has not
 * turned out {@linkplain CommObject#unreachableBecause() unreachable}. The caller caches the result per peer and
 * asks again when its link turns out unreachable.
 */
public final class SelectionPolicy {
    private final List<CommModule> modulesInOrder;
    private final Function<CommModule, MethodCounters> counters;

    public SelectionPolicy(List<CommModule> modulesInOrder, Function<CommModule, MethodCounters> counters) {
        this.modulesInOrder = List.copyOf(modulesInOrder);
        this.counters = counters;
    }

    /** The link to {@code peer}; throws with every method's reason when none applies. */
    public Link select(int peer, DescriptorTable table) {
        List<String> tried = new ArrayList<>();
        for (CommModule module : modulesInOrder) {
            Descriptor descriptor = table.find(module.name());
            if (descriptor == null) {
                tried.add(module.name() + ": not offered by rank " + peer);
                continue;
            }
            CommObject object = module.connect(peer, descriptor);
            String unreachable = object == null ? null : object.unreachableBecause();
            if (unreachable != null) {
                tried.add(module.name() + ": " + unreachable);
                continue;
            }
            if (object != null) {
                MethodCounters methodCounters = counters.apply(module);
                methodCounters.markLinked();
                return new Link(module, object, methodCounters);
            }
            tried.add(module.name() + ": not applicable");
        }
        throw new IllegalStateException("no communication method reaches rank " + peer + " " + tried);
    }
}
