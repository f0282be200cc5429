package org.weft.mm.spi;

import java.util.List;

/**
 * One communication method. A module moves remote service requests (RSRs: endpoint id, handler id, bytes)
 * between processes and hands arriving ones to {@link ModuleContext#inbound()}; it knows nothing of MPI.
 *
 * <h2>Lifecycle</h2>
 * <ol>
 *   <li>{@link #unavailabilityCause} is asked first; a module that cannot run here says why
 *       (as Netty's {@code Epoll.unavailabilityCause()}) and is left out of the job, which goes on. A module
 *       that {@link #startsOnDemand()} is asked only when the modules that started first leave some pair of
 *       ranks unconnected ({@link #connects}), with the default method order.</li>
 *   <li>{@link #init} once; afterwards {@link #localDescriptor()} tells peers how to reach this process.</li>
 *   <li>{@link #connect} for each peer the selection policy tries, in table order; {@code null} means
 *       "not applicable" and the policy tries the next method.</li>
 *   <li>{@link CommObject#send} and {@link #poll()} while the job runs.</li>
 *   <li>{@link #shutdown()} once, after the finalize barrier: no RSR is in flight any more.</li>
 * </ol>
 *
 * <h2>Threading</h2>
 * {@code connect}, {@code send} and {@code poll} may be called from any thread, concurrently. Arriving RSRs are
 * delivered either during {@link #poll()} on the caller's thread or on a thread of the module's own (a Netty
 * event loop); RSRs from one sender are delivered in the order they were sent, one at a time.
 *
 * <h2>Return codes</h2>
 * {@link #poll()} returns the work it did (RSRs delivered), zero when there was none; modules that deliver on
 * their own threads return 0. {@link CommObject#send} returns a {@link SendStatus}: back-pressure is a return
 * value, not an exception.
 */
public interface CommModule {
    /** The method's name as users write it in {@code --methods}: {@code self}, {@code tcp}, ... */
    String name();

    /** {@code null} when the module can run in this process, else a sentence saying why it cannot. */
    String unavailabilityCause(ModuleContext context);

    /** Starts the module (listening sockets, mapped files); called once. */
    void init(ModuleContext context) throws Exception;

    /** How peers reach this process by this method; valid after {@link #init}. */
    Descriptor localDescriptor();

    /**
     * A communication object that reaches {@code peerRank} through {@code remote}, or {@code null} when this
     * method does not apply to that peer (another host for shared memory, another job for native MPI).
     * Repeated calls for the same peer return the same object. Must not block on the network.
     */
    CommObject connect(int peerRank, Descriptor remote);

    /**
     * Whether this method connects rank {@code rankA}, which offered {@code a}, with rank {@code rankB}, which
     * offered {@code b} (possibly the same rank), as {@link #connect} would decide, from the descriptors alone: any
     * rank asks it about any two, and all must agree. The device asks the modules that started first, to decide
     * whether those that {@link #startsOnDemand()} are needed. Default {@code false}: unknown, so they start.
     */
    default boolean connects(int rankA, Descriptor a, int rankB, Descriptor b) {
        return false;
    }

    /**
     * Whether this module starts only when the modules before it leave some pair of ranks unconnected (a module
     * that costs much to start, as tcp's Netty event loop does, and that a job on one host never selects).
     */
    default boolean startsOnDemand() {
        return false;
    }

    /** Largest payload sent eagerly (with its envelope) by this method; larger ones use rendezvous. */
    long eagerLimit();

    /**
     * Largest RSR body (header + payload) one {@link CommObject#send} may carry. The device keeps eager messages
     * under it and splits rendezvous data into fragments no larger than it.
     */
    default long maxRsrLength() {
        return Long.MAX_VALUE;
    }

    /** What a waiting thread may sleep on until this module has something, or {@code null} (the default). */
    default Doorbell doorbell() {
        return null;
    }

    /** Delivers arrived RSRs on the caller's thread, at most a bounded number; returns how many. */
    int poll();

    /**
     * Writes at once whatever RSRs this module holds back to send several as one (aggregation): a thread of this
     * process is about to wait, and a message held while its sender waits could be the one its peer needs to
     * answer. Called, from any thread, after the module said {@link ModuleContext#holdingSends()}. Default: a
     * module that sends each RSR when given it has nothing to do.
     */
    default void flush() {
    }

    /**
     * Whether bytes of RSRs this module took ({@link SendStatus#SENT}) are still to go out by this process's progress
     * (tcp: a connection's queue, or its wire's); a native collective that holds up this process's progress asks it
     * ({@code NativeCollectives}). Default: a module that hands every RSR on when it takes it.
     */
    default boolean holdsOutbound() {
        return false;
    }

    /**
     * Lines for {@code weftrun --report} about this module in this process beyond the common counters (what a
     * path's policy is and what it did), each a sentence without a line break. Default: none.
     */
    default List<String> reportLines() {
        return List.of();
    }

    /** Releases everything; called once after the finalize barrier. */
    void shutdown();
}
