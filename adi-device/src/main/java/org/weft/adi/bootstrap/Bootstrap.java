package org.weft.adi.bootstrap;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * How the processes of one job meet: the launcher's bootstrap service, reached through this client.
 * All methods but {@link #abort} and {@link #close} are collective over the world and are called in the
 * same order by every rank.
 */
public interface Bootstrap extends AutoCloseable {
    /**
     * Publishes this rank's business card (its serialized descriptor table) and returns every rank's card,
     * indexed by world rank, once all ranks have published.
     */
    byte[][] allGather(byte[] card) throws IOException;

    /** Returns when every rank has called it ({@code MPI_Finalize} uses it). */
    void barrier() throws IOException;

    /**
     * Sends one of the {@link LauncherRequests} ({@code op} with its {@code body}); the future completes with the
     * answer's body, or fails with a {@link RefusedRequestException} when the launcher answers with an MPI error
     * class (an {@code IOException} when it cannot be asked). May be called by any thread at any time, also while a
     * collective is in flight. A device awaits it while it progresses ({@link org.weft.adi.Device#awaitResult}).
     */
    default CompletableFuture<byte[]> request(byte op, byte[] body) {
        return CompletableFuture.failedFuture(new RefusedRequestException(op == LauncherRequests.SPAWN
                ? org.weft.adi.ErrorClass.ERR_SPAWN
                : op == LauncherRequests.LOOKUP ? org.weft.adi.ErrorClass.ERR_NAME
                : op == LauncherRequests.RESERVE ? org.weft.adi.ErrorClass.ERR_PORT
                : org.weft.adi.ErrorClass.ERR_SERVICE,
                "a process started without weftrun has no launcher to ask (spawn, names, other jobs' processes)"));
    }

    /** The business cards of these job ranks (of any world of the job), once each has published one. */
    default CompletableFuture<byte[][]> cards(int[] ranks) {
        return request(LauncherRequests.CARDS, LauncherRequests.ranks(ranks)).thenApply(body -> {
            try {
                return BootstrapProtocol.cardsOf(body);
            } catch (IOException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }

    /** Asks the launcher to end the whole job with {@code code}, naming this rank and {@code message}. */
    void abort(int code, String message);

    /** Leaves the job (after the finalize barrier). */
    @Override
    void close();
}
