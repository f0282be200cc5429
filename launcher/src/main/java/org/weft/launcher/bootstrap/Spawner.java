package org.weft.launcher.bootstrap;

import org.weft.adi.bootstrap.LauncherRequests.SpawnSpec;
import org.weft.adi.bootstrap.RefusedRequestException;

/** Starts the processes of a spawn: the launcher's job, given the world the bootstrap service made for them. */
@FunctionalInterface
public interface Spawner {
    /**
     * Starts one process per rank of {@code spec}, job ranks {@code firstRank ..}, before returning (not waiting for
     * them to meet); {@code ERR_SPAWN} when they cannot be started.
     */
    void start(SpawnSpec spec, int firstRank) throws RefusedRequestException;

    /** The spawner of a service with no launcher behind it (tests): refuses. */
    Spawner NONE = (spec, firstRank) -> {
        throw new RefusedRequestException(org.weft.adi.ErrorClass.ERR_SPAWN, "this bootstrap service spawns nothing");
    };
}
