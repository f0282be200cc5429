package org.weft.mm.relay;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.weft.adi.WorldConfig;
import org.weft.adi.net.HostAddresses;
import org.weft.adi.param.Parameters;
import org.weft.mm.DeviceParameters;
import org.weft.mm.module.relay.RelayAddress;
import org.weft.mm.module.relay.RelayParameters;

/**
 * A relay process, as {@code weftrun --relay SITE=HOST} starts it on a gateway host: the job's id and secret and the
 * site come in the environment as a rank's do ({@code WEFT_JOB_ID}, {@code WEFT_SECRET}, {@code WEFT_SITE}); it
 * listens on {@code WEFT_RELAY_LISTEN} (addresses, comma-separated; {@code auto}: every non-loopback IPv4 address of
 * its host, loopback when it has none), prints {@value #READY} and its address ({@code SITE@HOSTS:PORT}) as its
 * first line of output, and serves until its standard input ends (the launcher has gone) or it is killed.
 */
public final class RelayMain {
    /** The first line's start; the launcher waits for it. */
    public static final String READY = "weft relay ready ";
    public static final String ENV_LISTEN = "WEFT_RELAY_LISTEN";

    private RelayMain() {
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> env = System.getenv();
        Parameters parameters = Parameters.of(Map.of());
        String site = parameters.get(DeviceParameters.SITE);
        String listen = env.getOrDefault(ENV_LISTEN, "auto");
        List<String> hosts = listen.equals("auto") ? HostAddresses.nonLoopback() : List.of(listen.split(","));
        RelayServer server = new RelayServer(site.isEmpty() ? "-" : site, env.get(WorldConfig.ENV_JOB_ID),
                env.get(WorldConfig.ENV_SECRET), Math.toIntExact(parameters.get(RelayParameters.BUFFER)),
                RelayParameters.spinMicros(parameters.get(RelayParameters.SPIN),
                        Runtime.getRuntime().availableProcessors()), System.err::println);
        RelayAddress where = new RelayAddress(site.isEmpty() ? "-" : site,
                server.bind(hosts.isEmpty() ? List.of("127.0.0.1") : hosts));
        System.out.println(READY + where);
        System.out.flush();
        Thread.ofPlatform().daemon().name("weft-relay-stdin").start(() -> {
            awaitEnd(System.in);
            server.close();
        });
        try {
            server.run();
        } finally {
            server.release();
        }
    }

    private static void awaitEnd(InputStream in) {
        try {
            in.transferTo(java.io.OutputStream.nullOutputStream());
        } catch (IOException ignored) {
            // ended all the same
        }
    }
}
