package org.weft.mm.module.shm;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * {@link CrossMemoryAttach}, bound when a process first has a peer's memory to read rather than when shm starts:
 * binding a downcall spins classes (FFM's stubs, through the class-file API, interpreted in a fresh JVM) and costs a
 * rank ~35 ms of CPU, which every rank of a job paid at {@code MPI_Init} although most jobs never send a message
 * large enough to be read this way (docs/performance.md, "2026-11-26, fifth"). The first read hands the binding to
 * the {@code binder} and, unless that binds at once, answers that nothing is bound yet: that message, and those
 * until the binding ends, come through the ring, so a fresh job's first large messages do not stall for the
 * binding (issue 20 item 13). A binding that fails is said once, and reads are off from then on. Thread-safe.
 */
final class LazyCrossMemory {
    /** Binds on a daemon thread of its own, which ends when the binding does. */
    static final Executor ON_A_THREAD_OF_ITS_OWN = task -> Thread.ofPlatform().daemon().name("weft-shm-cma-binding")
            .start(task);

    private final Consumer<String> log;
    private final Executor binder;
    private final AtomicBoolean binding = new AtomicBoolean();
    private volatile CrossMemoryAttach bound;

    /**
     * @param binder runs the binding: {@link #ON_A_THREAD_OF_ITS_OWN}, or {@code Runnable::run} to have the first
     *               read wait for it
     */
    LazyCrossMemory(Consumer<String> log, Executor binder) {
        this.log = log;
        this.binder = binder;
    }

    /**
     * The bound reads; {@code null} when they cannot work here or are not bound yet (the first call hands the
     * binding to the binder).
     */
    CrossMemoryAttach get() {
        CrossMemoryAttach cma = bound;
        if (cma == null) {
            if (binding.compareAndSet(false, true)) {
                binder.execute(this::bind);
            }
            cma = bound; // a binder that runs the binding at once has bound it
            if (cma == null) {
                return null;
            }
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

    private void bind() {
        CrossMemoryAttach cma = CrossMemoryAttach.bind();
        if (cma.cause() != null) {
            log.accept(readsOff(cma.cause()));
        }
        bound = cma;
    }
}
