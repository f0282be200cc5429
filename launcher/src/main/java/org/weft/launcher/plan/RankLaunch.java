package org.weft.launcher.plan;

import java.util.List;
import java.util.Map;

/**
 * Everything needed to start one rank's process: its command line and the environment to add to the
 * launcher's own.
 */
public record RankLaunch(int rank, List<String> command, Map<String, String> environment) {
    public RankLaunch {
        command = List.copyOf(command);
        environment = Map.copyOf(environment);
    }
}
