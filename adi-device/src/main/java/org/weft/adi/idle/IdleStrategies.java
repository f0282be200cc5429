package org.weft.adi.idle;

import org.weft.adi.param.Parameter;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * The idle strategies by name, and the automatic choice. {@code auto} looks at how many ranks share this host's
 * cores: with a core each, a waiter spins long before it yields and parks only briefly (a wake-up costs 20–25 µs
 * on these VMs, more than most messages); with more ranks than cores, it spins little, yields, and parks up to a
 * millisecond, so that the rank it waits for gets the core.
 */
public final class IdleStrategies {
    public static final Parameter<String> IDLE_STRATEGY = Parameter.string("idle_strategy", "auto",
            "what a waiting rank does when a progress pass found nothing: auto, spin, yield or backoff");

    private IdleStrategies() {
    }

    /**
     * A supplier of fresh strategies (one per waiting thread) for {@code name}; those that park sleep through
     * {@code parker}.
     */
    public static Supplier<IdleStrategy> named(String name, int localRanks, int cores, Parker parker) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "spin" -> BusySpinIdleStrategy::new;
            case "yield" -> () -> new BackoffIdleStrategy(100, Long.MAX_VALUE, 0, 0);
            case "backoff" -> () -> BackoffIdleStrategy.oversubscribed(parker);
            case "auto" -> localRanks <= cores ? () -> BackoffIdleStrategy.dedicatedCore(parker)
                    : () -> BackoffIdleStrategy.oversubscribed(parker);
            default -> throw new IllegalArgumentException("idle_strategy: unknown strategy '" + name
                    + "' (auto, spin, yield, backoff)");
        };
    }

    /** The name {@code auto} resolves to, for reports. */
    public static String resolve(String name, int localRanks, int cores) {
        if (!name.equalsIgnoreCase("auto")) {
            return name;
        }
        return localRanks <= cores ? "backoff (dedicated core: long spin)" : "backoff (oversubscribed: short spin)";
    }
}
