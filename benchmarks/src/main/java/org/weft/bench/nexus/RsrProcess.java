package org.weft.bench.nexus;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.Bootstrap;
import org.weft.adi.bootstrap.SocketBootstrap;
import org.weft.adi.param.Parameters;
import org.weft.mm.Context;
import org.weft.mm.DescriptorTable;
import org.weft.mm.Endpoint;
import org.weft.mm.ModuleCatalog;
import org.weft.mm.RsrHandler;
import org.weft.mm.Startpoint;
import org.weft.mm.select.MethodOrder;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.ModuleContext;
import org.weft.mm.spi.RsrSink;

/**
 * This process as a bare Nexus context, without MPI: it joins the job through the launcher's bootstrap service,
 * starts the communication modules the method order allows ({@code --param methods=...}), registers a benchmark's
 * RSR handlers on one endpoint and meets its peers, which run the same program.
 *
 * <p>Why a context of its own: the multimethod device has no public way to lend its {@link Context} to a program,
 * so a benchmark below MPI opens one itself, through the public SPI, the way {@code MultimethodDevice.open} does.
 * Progress is a plain pass over the context's back-pressure queue and the modules ({@link #poll}), without the
 * device's polling policy; modules that deliver on their own thread return 0 from it.
 */
public final class RsrProcess implements AutoCloseable {
    private final Context context;
    private final Bootstrap bootstrap;
    private final List<CommModule> modules;
    private final Map<String, String> unavailable;

    private RsrProcess(Context context, Bootstrap bootstrap, List<CommModule> modules,
                       Map<String, String> unavailable) {
        this.context = context;
        this.bootstrap = bootstrap;
        this.modules = modules;
        this.unavailable = unavailable;
    }

    /**
     * Joins the job the launcher described in the environment, with {@code handlers} (by handler id) on endpoint
     * 0 of every process.
     */
    public static RsrProcess open(Map<Integer, RsrHandler> handlers) throws IOException {
        WorldConfig config = WorldConfig.fromEnvironment();
        if (config.isSingleton()) {
            throw new IllegalStateException("start this benchmark with weftrun (or weft bench): it needs peers");
        }
        Context context = new Context(config.rank(), config.size());
        Endpoint endpoint = context.createEndpoint();
        handlers.forEach(endpoint::register);
        Parameters parameters = Parameters.of(config.parameters());
        String order = parameters.get(MethodOrder.METHODS);
        String hostName = hostName();
        Map<String, String> unavailable = new LinkedHashMap<>();
        List<CommModule> running = new ArrayList<>();
        for (CommModule module : ModuleCatalog.create(MethodOrder.parse(order),
                !order.equals(MethodOrder.METHODS.defaultValue()))) {
            ModuleContext moduleContext = new BenchModuleContext(config.rank(), config.size(), config.jobId(),
                    config.secret(), hostName, parameters, context.inboundFor(module.name()));
            String cause = startOrExplain(module, moduleContext);
            if (cause == null) {
                running.add(module);
            } else {
                unavailable.put(module.name(), cause);
            }
        }
        context.start(running);
        Bootstrap bootstrap = SocketBootstrap.connect(config);
        byte[][] cards = bootstrap.allGather(context.localTable().encode());
        DescriptorTable[] tables = new DescriptorTable[cards.length];
        for (int r = 0; r < cards.length; r++) {
            tables[r] = DescriptorTable.decode(cards[r]);
        }
        context.meet(tables, endpoint.id());
        return new RsrProcess(context, bootstrap, running, unavailable);
    }

    /** Starts {@code module}; {@code null} when it runs, else why it cannot. */
    private static String startOrExplain(CommModule module, ModuleContext moduleContext) {
        String cause = module.unavailabilityCause(moduleContext);
        if (cause != null) {
            return cause;
        }
        try {
            module.init(moduleContext);
            return null;
        } catch (Exception e) {
            return "init failed: " + e;
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    public int rank() {
        return context.rank();
    }

    public int size() {
        return context.size();
    }

    /** The startpoint to endpoint 0 of {@code peer}. */
    public Startpoint startpoint(int peer) {
        return context.startpoint(peer);
    }

    /** One progress pass: back-pressured sends retried, then every module polled; returns the work done. */
    public int poll() {
        int work = context.flushBacklog();
        for (CommModule module : modules) {
            work += module.poll();
        }
        return work;
    }

    /** Waits for every process of the job (through the bootstrap service: slow, not for timed loops). */
    public void barrier() throws IOException {
        bootstrap.barrier();
    }

    /** Methods of the order that could not run here, with the reason. */
    public Map<String, String> unavailableMethods() {
        return Map.copyOf(unavailable);
    }

    /** Waits for every process, then stops the modules and leaves the job. */
    @Override
    public void close() throws IOException {
        try {
            bootstrap.barrier();
        } finally {
            for (CommModule module : modules) {
                module.shutdown();
            }
            bootstrap.close();
        }
    }

    /** What every module of this process learns at init. */
    private record BenchModuleContext(int rank, int size, String jobId, String secret, String hostName,
                                      Parameters parameters, RsrSink inbound) implements ModuleContext {
    }
}
