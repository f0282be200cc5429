package org.weft.bench.nexus;

import org.weft.adi.DeviceReport;
import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.SocketBootstrap;
import org.weft.adi.param.Parameters;
import org.weft.mm.MultimethodDevice;
import org.weft.mm.RsrHandler;
import org.weft.mm.Startpoint;
import org.weft.mm.progress.ProgressEngine;
import org.weft.mm.spi.CommModule;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * This process as a bare Nexus context, below MPI: the multimethod device opened with a benchmark's own RSR handlers
 * on its endpoint (handler ids other than MPI's <em>enqueue message</em>), so that a benchmark sends RSRs through
 * startpoints and receives them through the device's own progress engine and polling policy.
 */
public final class RsrProcess implements AutoCloseable {
    private final MultimethodDevice device;
    private final SocketBootstrap bootstrap;
    private final Parameters parameters;

    private RsrProcess(MultimethodDevice device, SocketBootstrap bootstrap, Parameters parameters) {
        this.device = device;
        this.bootstrap = bootstrap;
        this.parameters = parameters;
    }

    /** Joins the job the launcher described in the environment, with {@code handlers} (by handler id). */
    public static RsrProcess open(Map<Integer, RsrHandler> handlers) throws IOException {
        WorldConfig config = WorldConfig.fromEnvironment();
        if (config.isSingleton()) {
            throw new IllegalStateException("start this benchmark with weftrun (or weft bench): it needs peers");
        }
        SocketBootstrap bootstrap = SocketBootstrap.connect(config);
        return new RsrProcess(MultimethodDevice.open(config, bootstrap, endpoint -> handlers.forEach(endpoint::register)),
                bootstrap, Parameters.of(config.parameters()));
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

    /** A new startpoint to the same endpoint of {@code peer}, restricted to {@code method} (manual selection). */
    public Startpoint startpointVia(int peer, String method) {
        return device.context().startpointVia(peer, method);
    }

    /** The methods running in this process, in selection order. */
    public List<String> methods() {
        return device.context().modules().stream().map(CommModule::name).toList();
    }

    /** The {@code <method>_skip_poll} the progress engine was opened with. */
    public int skipPoll(String method) {
        return parameters.get(ProgressEngine.skipPoll(method));
    }

    /** What the device counted so far: RSRs per method, polls. */
    public DeviceReport report() {
        return device.report();
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

    /**
     * Ends this rank at once after {@code failure} inside a try-with-resources of the process: closing would wait
     * for the peer at the finish barrier, and hang there.
     */
    static void halt(RuntimeException failure) {
        failure.printStackTrace();
        Runtime.getRuntime().halt(1);
    }

    /** Waits for every process, then stops the modules and leaves the job. */
    @Override
    public void close() {
        device.finish();
    }
}
