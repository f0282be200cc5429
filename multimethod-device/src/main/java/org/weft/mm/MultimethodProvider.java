package org.weft.mm;

import org.weft.adi.Device;
import org.weft.adi.DeviceProvider;
import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.Bootstrap;
import org.weft.adi.bootstrap.SingletonBootstrap;

/** Registers the multimethod device with {@link java.util.ServiceLoader}. */
public final class MultimethodProvider implements DeviceProvider {
    @Override
    public String name() {
        return "multimethod";
    }

    @Override
    public Device open(WorldConfig config) {
        return MultimethodDevice.open(config, bootstrapFor(config));
    }

    static Bootstrap bootstrapFor(WorldConfig config) {
        if (config.isSingleton()) {
            return new SingletonBootstrap();
        }
        throw new UnsupportedOperationException("socket bootstrap not merged yet");
    }
}
