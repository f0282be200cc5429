package org.weft.launcher.agent;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import org.weft.launcher.plan.RankLaunch;

/**
 * Starts ranks as child processes of the launcher on this host, their three streams piped to the launcher.
 */
public final class LocalAgent {

    public RankProcess start(RankLaunch launch) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(launch.command());
        builder.environment().putAll(launch.environment());
        builder.redirectInput(Redirect.PIPE);
        builder.redirectOutput(Redirect.PIPE);
        builder.redirectError(Redirect.PIPE);
        return new RankProcess(launch.rank(), builder.start());
    }
}
