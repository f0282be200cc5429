package org.weft.mm.module.shm;

import java.util.function.Consumer;

/**
 * {@link CrossMemoryAttach}, bound when a process first reads a peer's memory rather than when shm starts: binding
 * a downcall spins classes (FFM's stubs, through the class-file API, interpreted in a fresh JVM) and costs a rank
 * ~35 ms of CPU, which every rank of a job paid at {@code MPI_Init} although most jobs never send a message large
 * enough to be read this way (docs/performance.md, "2026-11-26, fifth"). The first large message pays it instead.
 * A binding that fails is said once, and reads are off from then on: the data comes through the ring. Thread-safe.
 */
final class LazyCrossMemory {
    private final Consumer<String> log;
    private volatile CrossMemoryAttach bound;

    LazyCrossMemory(Consumer<String> log) {
        this.log = log;
    }

    /** The bound reads, binding them now if no read came before; {@code null} when they cannot work here. */
    CrossMemoryAttach get() {
        CrossMemoryAttach cma = bound;
        if (cma == null) {
            cma = bindOnce();
        }
        return cma.cause() == null ? cma : null;
    }

    /** Whether the system call is bound (or found unusable) yet. */
    boolean bound() {
        return bound != null;
    }

    /** The line that says why large messages come through the ring. */
    static String readsOff(String cause) {
        return "large messages come through the ring: " + cause + " (" + ShmParameters.SINGLE_COPY.name()
                + "=none says nothing)";
    }

    private synchronized CrossMemoryAttach bindOnce() {
        if (bound == null) {
            CrossMemoryAttach cma = CrossMemoryAttach.bind();
            if (cma.cause() != null) {
                log.accept(readsOff(cma.cause()));
            }
            bound = cma;
        }
        return bound;
    }
}
