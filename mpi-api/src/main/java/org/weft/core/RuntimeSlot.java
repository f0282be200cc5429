package org.weft.core;

import java.util.function.Supplier;

import org.weft.adi.DeviceException;
import org.weft.adi.DeviceProvider;
import org.weft.adi.ErrorClass;
import org.weft.adi.WorldConfig;
import org.weft.core.error.MpiErrors;

/**
 * The place where one rank's {@link MpiRuntime} lives from {@code MPI_Init} on. It knows how to open the
 * device (a provider and a world configuration, read lazily at {@code MPI_Init}) and remembers whether
 * {@code MPI_Init} and {@code MPI_Finalize} ran. Thread-safe.
 */
public final class RuntimeSlot {
    private final Supplier<DeviceProvider> provider;
    private final Supplier<WorldConfig> config;
    private volatile MpiRuntime runtime;

    public RuntimeSlot(Supplier<DeviceProvider> provider, Supplier<WorldConfig> config) {
        this.provider = provider;
        this.config = config;
    }

    /** {@code MPI_Init_thread}: opens the device and creates the runtime; fails if called twice. */
    public synchronized MpiRuntime initialize(int requiredThreadLevel) {
        if (runtime != null) {
            throw MpiErrors.error(ErrorClass.ERR_OTHER, runtime.isFinalized()
                    ? "MPI_Init called after MPI_Finalize" : "MPI_Init called twice");
        }
        MpiRuntime created = new MpiRuntime(provider.get().open(config.get()), requiredThreadLevel);
        runtime = created;
        created.joinParents(); // a spawned world's MPI_Init meets its parents, who wait in their spawn
        return created;
    }

    /** The active runtime; {@code ERR_OTHER} before {@code MPI_Init} or after {@code MPI_Finalize}. */
    public MpiRuntime runtime() {
        MpiRuntime r = runtime;
        if (r == null) {
            throw notInitialized();
        }
        if (r.isFinalized()) {
            throw MpiErrors.error(ErrorClass.ERR_OTHER, "MPI has already been finalized");
        }
        return r;
    }

    /** The active runtime, or {@code null} before {@code MPI_Init} and after {@code MPI_Finalize}. */
    public MpiRuntime activeRuntime() {
        MpiRuntime r = runtime;
        return r == null || r.isFinalized() ? null : r;
    }

    /** {@code MPI_Initialized}: true once {@code MPI_Init} ran, also after {@code MPI_Finalize}. */
    public boolean isInitialized() {
        return runtime != null;
    }

    /** {@code MPI_Finalized}. */
    public boolean isFinalized() {
        MpiRuntime r = runtime;
        return r != null && r.isFinalized();
    }

    private static DeviceException notInitialized() {
        return MpiErrors.error(ErrorClass.ERR_OTHER, "MPI has not been initialized (call MPI.Init first)");
    }
}
