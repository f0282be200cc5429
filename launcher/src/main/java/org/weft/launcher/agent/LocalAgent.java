package org.weft.launcher.agent;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import org.weft.adi.WorldConfig;
import org.weft.launcher.plan.RankLaunch;

/**
 * Starts ranks as child processes of the launcher on this host, their three streams piped to the launcher: a rank's
 * JVM, or a native site's {@code mpirun} that starts the site's JVMs in turn.
 */
public final class LocalAgent {
    /**
     * Starts, in the background, binding what telling how a rank ended needs ({@link PidfdExit}): weftrun calls it
     * first thing, so that the binding runs beside its parsing instead of before its second rank starts.
     */
    public static void prepare() {
        PidfdExit.prepare();
    }

    public RankProcess start(RankLaunch launch) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(launch.command());
        // a rank's place in the world comes from its launch only, never from a weftrun run inside a job
        builder.environment().remove(WorldConfig.ENV_RANK);
        builder.environment().remove(WorldConfig.ENV_RANK_BASE);
        builder.environment().putAll(launch.environment());
        builder.redirectInput(Redirect.PIPE);
        builder.redirectOutput(Redirect.PIPE);
        builder.redirectError(Redirect.PIPE);
        return new RankProcess(launch, builder.start());
    }
}
