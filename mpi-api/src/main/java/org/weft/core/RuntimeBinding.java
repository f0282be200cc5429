package org.weft.core;

import java.util.Objects;
import java.util.concurrent.Callable;

import org.weft.adi.DeviceProvider;
import org.weft.adi.WorldConfig;

/**
 * Binds the statics of the {@code mpi} facade ({@code MPI.COMM_WORLD}, {@code MPI.Init}, …) to a rank's
 * {@link RuntimeSlot}. <b>This is the one piece of static state of Weft below the facade</b>, kept here so that
 * everything else can be instance-based.
 *
 * <ul>
 *   <li>In a normal process the facade uses the process-wide default slot: {@code MPI.Init} opens the first
 *       {@link DeviceProvider} on the class path with {@link WorldConfig#fromEnvironment()}.</li>
 *   <li>To run N ranks as N instances in one JVM (fast tests), run each rank's code through
 *       {@link #runWithConfig(WorldConfig, Callable)}: the calling thread, and every thread it starts afterwards
 *       (an {@link InheritableThreadLocal}), then sees its own slot, so {@code MPI.Init} in it opens a runtime
 *       for {@code config}. Threads created before the call (pool threads) do not inherit the binding.</li>
 * </ul>
 *
 * <p>Cost: one thread-local lookup per facade call on a predefined communicator once any thread was bound (none in
 * a normal process); communicators created later hold their runtime directly.
 */
public final class RuntimeBinding {
    private static final InheritableThreadLocal<RuntimeSlot> BOUND = new InheritableThreadLocal<>();
    /**
     * Whether any thread was ever bound: until then every thread uses the default slot. Only the bound thread and
     * threads it starts later need to see it set, and they do (program order, thread start).
     */
    private static boolean everBound;
    private static final RuntimeSlot PROCESS_DEFAULT =
            new RuntimeSlot(DeviceProvider::load, WorldConfig::fromEnvironment);

    private RuntimeBinding() {
    }

    /** The slot of the calling thread: its bound slot, or the process-wide default. */
    public static RuntimeSlot slot() {
        if (!everBound) {
            return PROCESS_DEFAULT; // a normal process: no thread-local look-up on every call
        }
        RuntimeSlot bound = BOUND.get();
        return bound != null ? bound : PROCESS_DEFAULT;
    }

    /** The calling thread's active runtime ({@code ERR_OTHER} before Init or after Finalize). */
    public static MpiRuntime runtime() {
        return slot().runtime();
    }

    /**
     * Runs {@code body} on the calling thread with a fresh slot that opens the first provider on the class path
     * with {@code config}; the previous binding of the thread is restored afterwards.
     */
    public static <T> T runWithConfig(WorldConfig config, Callable<T> body) throws Exception {
        return runWith(DeviceProvider.load(), config, body);
    }

    /** As {@link #runWithConfig}, with an explicit device provider. */
    public static <T> T runWith(DeviceProvider provider, WorldConfig config, Callable<T> body) throws Exception {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(config, "config");
        everBound = true; // before the binding: a thread that sees its binding also sees this
        RuntimeSlot previous = BOUND.get();
        BOUND.set(new RuntimeSlot(() -> provider, () -> config));
        try {
            return body.call();
        } finally {
            if (previous == null) {
                BOUND.remove();
            } else {
                BOUND.set(previous);
            }
        }
    }
}
