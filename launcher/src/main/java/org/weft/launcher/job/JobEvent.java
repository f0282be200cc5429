package org.weft.launcher.job;

import org.weft.launcher.agent.ProcessEnd;
import org.weft.launcher.agent.RankProcess;
import org.weft.launcher.bootstrap.BootstrapEvent;

/** What the supervisor of a job reacts to, in the order it happened, from one queue. */
sealed interface JobEvent {

    /** A process of the job (a rank, or a native site's mpirun) ended so. */
    record ProcessExited(RankProcess process, ProcessEnd end) implements JobEvent {
    }

    /** A relay process of the job ended so. */
    record RelayExited(RankProcess process, ProcessEnd end) implements JobEvent {
    }

    /** The bootstrap service saw something. */
    record Bootstrap(BootstrapEvent event) implements JobEvent {
    }

    /** A rank spawned processes: start them (the supervisor does, so it counts and watches them) and say so. */
    record Spawn(org.weft.adi.bootstrap.LauncherRequests.SpawnSpec spec, int firstRank,
                 java.util.concurrent.CompletableFuture<String> started) implements JobEvent {
    }

    /** A rank lost its bootstrap connection and its process did not end within the grace period. */
    record LostContact(int rank) implements JobEvent {
    }
}
