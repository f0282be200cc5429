package org.weft.adi;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * The abstract device: point-to-point message passing between the processes of one job, addressed by
 * world rank and separated by context id. The device-independent layer ({@code mpi}, {@code org.weft.core})
 * builds communicators, groups, datatypes and collectives on these calls and on nothing else.
 *
 * <h2>Lifecycle</h2>
 * A {@link DeviceProvider} opens the device with a {@link WorldConfig}; after {@code open} returns, every rank
 * of the world is reachable. {@link #finish()} is collective ({@code MPI_Finalize}): it returns when all ranks
 * called it, then releases every resource. {@link #abort} ends the whole job.
 *
 * <h2>Buffers</h2>
 * Message data is a contiguous {@link MemorySegment} (a heap array segment or a native one); bytes go on the
 * wire as they are in memory, which the layer above keeps little-endian. A send may read its segment, and a
 * receive may write its segment, until the request is complete.
 *
 * <h2>Threading</h2>
 * Every method may be called by any thread at any time ({@code MPI_THREAD_MULTIPLE}). Requests complete either
 * during {@link #progress()} on a caller's thread or on a module's own delivery thread; {@link #await} covers
 * both and backs off through the device's idle strategy.
 *
 * <h2>Errors</h2>
 * Invalid arguments the device can see (rank outside the world, negative tag) raise {@link DeviceException} with
 * the MPI error class; errors of a message (truncation) are reported in the request's status.
 */
public interface Device {
    /** This process's rank in the world. */
    int rank();

    /** Number of processes in the world. */
    int size();

    /** {@code MPI_Get_processor_name}: the host this rank runs on. */
    String processorName();

    /**
     * The info hints of the communicator that sends on {@code context} ({@code MPI_Comm_set_info}, a duplicate's
     * inherited ones; given for its point-to-point and its collective context, and empty when it is freed); a device
     * acts on those it knows (the multimethod device: {@code weft_streams}) and ignores the rest. By default it
     * ignores them all.
     */
    default void hint(int context, java.util.Map<String, String> hints) {
    }

    /** Where world rank {@code worldRank} runs; by default every rank shares this process's host and no site. */
    default Locality locality(int worldRank) {
        return new Locality("", processorName());
    }

    /** How the world grows: spawn, other worlds' processes, names ({@link DynamicProcesses}). */
    default DynamicProcesses dynamic() {
        return DynamicProcesses.none("device-" + System.identityHashCode(this));
    }

    /**
     * Memory this process can share with other ranks of its host for collectives ({@link SharedMemory}), or
     * {@code null} when the device has none (the default).
     */
    default SharedMemory sharedMemory() {
        return null;
    }

    /**
     * The native MPI underneath this process that can run collectives of communicators wholly inside its native job
     * ({@link NativeCollectives}), or {@code null} when there is none (the default).
     */
    default NativeCollectives nativeCollectives() {
        return null;
    }

    /**
     * Whether the blocking collectives of a communicator spanning sites or hosts run in two levels, each site's (or
     * host's) part on its own fast path ({@code coll_two_level}); true by default.
     */
    default boolean twoLevelCollectives() {
        return true;
    }

    /** How this process was started ({@code MPI.APPNUM}, {@code UNIVERSE_SIZE}, {@code INFO_ENV}). */
    default ProcessStart start() {
        return ProcessStart.ofThisJvm(-1, size(), size(), size());
    }

    /** Starts sending {@code data} to world rank {@code dest}, with {@code tag} in {@code context}. */
    DeviceRequest isend(MemorySegment data, int dest, int tag, int context, SendMode mode);

    /**
     * Starts a receive into {@code buffer} from world rank {@code source} (or {@link Ranks#ANY_SOURCE}) with
     * {@code tag} (or {@link Ranks#ANY_TAG}) in {@code context}. A longer message is truncated to the buffer
     * and completes with {@link ErrorClass#ERR_TRUNCATE}.
     */
    DeviceRequest irecv(MemorySegment buffer, int source, int tag, int context);

    /**
     * Blocking send ({@code MPI_Send}, {@code MPI_Ssend}, {@code MPI_Rsend}): returns when {@code data} may be
     * reused, with the error class of the send. A device may serve it without garbage (reused request objects).
     */
    default int send(MemorySegment data, int dest, int tag, int context, SendMode mode) {
        DeviceRequest request = isend(data, dest, tag, context, mode);
        await(request);
        return request.error();
    }

    /**
     * Blocking receive ({@code MPI_Recv}): returns the completed request. The request may be one the device reuses:
     * read its status before this thread's next blocking receive, and do not keep it.
     */
    default DeviceRequest recv(MemorySegment buffer, int source, int tag, int context) {
        DeviceRequest request = irecv(buffer, source, tag, context);
        await(request);
        return request;
    }

    /**
     * Blocking exchange ({@code MPI_Sendrecv}): receives into {@code buffer} while sending {@code data}, each side as
     * {@link #irecv} and {@link #isend} (standard mode) take it, {@link Ranks#PROC_NULL} included; returns the
     * completed receive, which may be one the device reuses, as {@link #recv}'s. A send that failed is raised.
     */
    default DeviceRequest sendRecv(MemorySegment data, int dest, int sendTag, MemorySegment buffer, int source,
                                   int recvTag, int context) {
        return exchange(null, null, data, dest, sendTag, buffer, source, recvTag, context);
    }

    /**
     * {@link #sendRecv} with the receive started by {@link #restartRecv} from {@code previousRecv} and the send by
     * {@link #restartSend} from {@code previousSend} (either may be {@code null}), for a device that reuses requests.
     * A send that cannot start cancels the receive first: it must not stay posted (its request may be reused).
     */
    default DeviceRequest exchange(DeviceRequest previousRecv, DeviceRequest previousSend, MemorySegment data,
                                   int dest, int sendTag, MemorySegment buffer, int source, int recvTag, int context) {
        DeviceRequest recv = restartRecv(previousRecv, buffer, source, recvTag, context);
        DeviceRequest send;
        try {
            send = restartSend(previousSend, data, dest, sendTag, context, SendMode.STANDARD);
        } catch (RuntimeException e) {
            cancel(recv);
            throw e;
        }
        await(send);
        await(recv);
        if (send.error() != ErrorClass.SUCCESS) {
            throw new DeviceException(send.error(), "the send of the exchange failed");
        }
        return recv;
    }

    /**
     * {@code MPI_Start} of a persistent send: as {@link #isend}, but the device may reuse {@code previous}, this
     * operation's last request (complete and waited for; {@code null} the first time), so that a persistent send
     * started again and again makes no garbage.
     */
    default DeviceRequest restartSend(DeviceRequest previous, MemorySegment data, int dest, int tag, int context,
                                      SendMode mode) {
        return isend(data, dest, tag, context, mode);
    }

    /** {@code MPI_Start} of a persistent receive: as {@link #irecv}, reusing {@code previous} if the device can. */
    default DeviceRequest restartRecv(DeviceRequest previous, MemorySegment buffer, int source, int tag,
                                      int context) {
        return irecv(buffer, source, tag, context);
    }

    /**
     * Hands back the request of a nonblocking operation that its caller has taken for good: complete, its status
     * read, referenced no more. The device may reuse it for this thread's next {@link #isend} or {@link #irecv}, so
     * that a steady stream of nonblocking operations makes no garbage below the API's own request objects.
     */
    default void retire(DeviceRequest request) {
    }

    /** {@code MPI_Iprobe}: a matching message that has arrived, left in place; {@code null} if none. */
    ProbeResult iprobe(int source, int tag, int context);

    /** {@code MPI_Improbe}: takes a matching message out of matching; {@code null} if none has arrived. */
    DeviceMessage improbe(int source, int tag, int context);

    /** {@code MPI_Imrecv}: receives a message returned by {@link #improbe}. */
    DeviceRequest imrecv(DeviceMessage message, MemorySegment buffer);

    /**
     * {@code MPI_Cancel}: cancels a receive that has not matched yet (it then completes as cancelled) and
     * returns true; returns false when the request has matched or is a send (sends are not cancellable here).
     */
    boolean cancel(DeviceRequest request);

    /** One bounded progress pass over the communication modules; returns the amount of work done. */
    int progress();

    /** Makes progress until {@code request} is complete, backing off when there is nothing to do. */
    default void await(DeviceRequest request) {
        await((BooleanSupplier) request);
    }

    /** Makes progress until {@code done} is true, backing off through the idle strategy. */
    void await(BooleanSupplier done);

    /**
     * As {@link #await(BooleanSupplier)}, for an internal thread that waits all the time (a one-sided window's
     * service thread): a device may let the program's own waiting threads make progress before it.
     */
    default void awaitInBackground(BooleanSupplier done) {
        await(done);
    }

    /**
     * Makes progress until {@code result} is complete and returns its value: how a call that blocks outside the
     * device (a request to the launcher, a socket of a port; see {@link org.weft.adi.concurrent.BlockingCall}) is
     * awaited, so that this process goes on moving what its peers wait for meanwhile.
     *
     * @throws IOException the result's failure when it is one (a {@code RuntimeException} or {@code Error} as it
     *                     is; anything else wrapped)
     */
    default <T> T awaitResult(CompletableFuture<T> result) throws IOException {
        await(result::isDone);
        return Results.valueOf(result);
    }

    /** Feedback on this process: the method each peer uses and what each method did so far. */
    DeviceReport report();

    /** Ends the whole job with {@code code}; does not return. */
    void abort(int code, String message);

    /** {@code MPI_Finalize}: collective; returns when every rank finished, after all resources are released. */
    void finish();
}
