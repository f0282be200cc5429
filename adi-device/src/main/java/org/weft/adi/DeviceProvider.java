package org.weft.adi;

import java.util.ServiceLoader;

/**
 * Opens a {@link Device}. Implementations register through {@link ServiceLoader}
 * ({@code META-INF/services/org.weft.adi.DeviceProvider}); the {@code mpi} layer takes the first one found.
 */
public interface DeviceProvider {
    /** A short name, e.g. {@code multimethod}. */
    String name();

    /** Opens the device for one process of the world described by {@code config}. */
    Device open(WorldConfig config);

    /** The first provider on the class path, or a clear error when Weft's device jar is missing. */
    static DeviceProvider load() {
        return ServiceLoader.load(DeviceProvider.class).findFirst().orElseThrow(() -> new DeviceException(
                ErrorClass.ERR_INTERN, "no Weft device on the class path (add multimethod-device)"));
    }
}
