package org.weft.launcher.job;

import org.weft.launcher.bootstrap.BootstrapEvent;

/** What the supervisor of a job reacts to, in the order it happened, from one queue. */
sealed interface JobEvent {

    /** A rank's process ended with this status. */
    record RankExited(int rank, long pid, int status) implements JobEvent {
    }

    /** The bootstrap service saw something. */
    record Bootstrap(BootstrapEvent event) implements JobEvent {
    }

    /** A rank lost its bootstrap connection and its process did not end within the grace period. */
    record LostContact(int rank) implements JobEvent {
    }
}
