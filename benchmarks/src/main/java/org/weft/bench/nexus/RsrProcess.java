package org.weft.bench.nexus;

import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.SocketBootstrap;
import org.weft.mm.MultimethodDevice;
import org.weft.mm.RsrHandler;
import org.weft.mm.Startpoint;

import java.io.IOException;
import java.util.Map;

/**
 * This process as a bare Nexus context, below MPI: the multimethod device opened with a benchmark's own RSR handlers
 * on its endpoint (handler ids other than MPI's <em>enqueue message</em>), so that a benchmark sends RSRs through
 * startpoints and receives them through the device's own progress engine and polling policy.
 */
public final class RsrProcess implements AutoCloseable {
    private final MultimethodDevice device;
    private final SocketBootstrap bootstrap;

    private RsrProcess(MultimethodDevice device, SocketBootstrap bootstrap) {
        this.device = device;
        this.bootstrap = bootstrap;
    }

    /** Joins the job the launcher described in the environment, with {@code handlers} (by handler id). */
    public static RsrProcess open(Map<Integer, RsrHandler> handlers) throws IOException {
        WorldConfig config = WorldConfig.fromEnvironment();
        if (config.isSingleton()) {
            throw new IllegalStateException("start this benchmark with weftrun (or weft bench): it needs peers");
        }
        SocketBootstrap bootstrap = SocketBootstrap.connect(config);
        return new RsrProcess(MultimethodDevice.open(config, bootstrap, endpoint -> handlers.forEach(endpoint::register)),
                bootstrap);
    }

    public int rank() {
        return device.rank();
    }

    public int size() {
        return device.size();
    }

    /** The startpoint to the endpoint of {@code peer} that holds the benchmark's handlers. */
    public Startpoint startpoint(int peer) {
        return device.context().startpoint(peer);
    }

    /** One progress pass of the device (back-pressured sends, then the modules); returns the work done. */
    public int poll() {
        return device.progress();
    }

    /** Waits for every process of the job (through the bootstrap service: slow, not for timed loops). */
    public void barrier() throws IOException {
        bootstrap.barrier();
    }

    /** Methods of the order that could not run here, with the reason. */
    public Map<String, String> unavailableMethods() {
        return device.report().unavailableMethods();
    }

    /** Waits for every process, then stops the modules and leaves the job. */
    @Override
    public void close() {
        device.finish();
    }
}
