package org.weft.mm;

import org.weft.adi.Device;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.adi.DeviceProvider;
import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.Bootstrap;
import org.weft.adi.bootstrap.SingletonBootstrap;
import org.weft.adi.bootstrap.SocketBootstrap;
import org.weft.adi.jfr.Jfr;
import org.weft.adi.jfr.RankRecording;
import org.weft.adi.trace.StartupTrace;

import java.io.IOException;

/** Registers the multimethod device with {@link java.util.ServiceLoader}. */
public final class MultimethodProvider implements DeviceProvider {
    @Override
    public String name() {
        return "multimethod";
    }

    @Override
    public Device open(WorldConfig config) {
        StartupTrace.mark("rank " + config.rank(), "MPI_Init entered the device");
        if (Jfr.ON) {
            RankRecording.start(config.rank()); // weftrun --jfr
        }
        Bootstrap bootstrap = bootstrapFor(config);
        StartupTrace.mark("rank " + config.rank(), "bootstrap connected");
        Device device = MultimethodDevice.open(config, bootstrap);
        StartupTrace.mark("rank " + config.rank(), "device open");
        return device;
    }

    static Bootstrap bootstrapFor(WorldConfig config) {
        if (config.isSingleton()) {
            return new SingletonBootstrap();
        }
        try {
            return SocketBootstrap.connect(config);
        } catch (IOException e) {
            throw new DeviceException(ErrorClass.ERR_INTERN, "cannot join the job through the bootstrap service at "
                    + config.bootstrapAddress() + ": " + e.getMessage(), e);
        }
    }
}
