package org.weft.launcher.job;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.weft.launcher.agent.RankProcess;
import org.weft.launcher.io.OutputSink;
import org.weft.mm.relay.RelayMain;

/**
 * Reads a relay process's output: its first line says where it listens ({@link RelayMain#READY}), which the launcher
 * waits for before it starts the ranks; whatever follows goes to the launcher's error stream, as the relay's own
 * messages do.
 */
final class RelayReady {
    private RelayReady() {
    }

    /**
     * The relay's {@code SITE@HOSTS:PORT}, once it has said it; throws {@link IOException} when it ends first, says
     * something else, or is silent for {@code wait}.
     */
    static String await(RankProcess relay, OutputSink err, Duration wait) throws IOException, InterruptedException {
        CompletableFuture<String> first = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("weftrun-relay-out-" + relay.launch().site()).start(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(relay.stdout(),
                    StandardCharsets.UTF_8))) {
                first.complete(out.readLine());
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    err.println(line);
                }
            } catch (IOException e) {
                first.complete(null);
            }
        });
        String line;
        try {
            line = first.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException("it did not say where it listens within " + wait.toSeconds() + " s");
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        }
        if (line == null || !line.startsWith(RelayMain.READY)) {
            throw new IOException(line == null ? "it ended before it listened" : "it said '" + line + "'");
        }
        return line.substring(RelayMain.READY.length()).strip();
    }
}
