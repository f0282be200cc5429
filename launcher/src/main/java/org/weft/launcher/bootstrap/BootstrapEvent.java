package org.weft.launcher.bootstrap;

/**
 * What the bootstrap service saw happen, reported to its listener (on the service's own threads; a listener
 * hands the event over and returns quickly).
 */
public sealed interface BootstrapEvent {

    /** A rank proved the secret and registered. */
    record Registered(int rank) implements BootstrapEvent {
    }

    /** A rank left cleanly (it said BYE, after the finalize barrier). */
    record Left(int rank) implements BootstrapEvent {
    }

    /** A registered rank's connection ended without BYE: the process died or lost the network. */
    record Disconnected(int rank, String reason) implements BootstrapEvent {
    }

    /** A rank called {@code MPI_Abort}. */
    record Aborted(int rank, int code, String message) implements BootstrapEvent {
    }

    /** A connection that did not prove it belongs to the job was dropped; the job goes on. */
    record Refused(String remote, String reason) implements BootstrapEvent {
    }

    /** A registered rank broke the protocol (e.g. collectives out of order); the job cannot go on. */
    record Violation(int rank, String reason) implements BootstrapEvent {
    }
}
