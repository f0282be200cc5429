package org.weft.adi.bootstrap;

import java.io.IOException;

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
     * Sends one of the {@link LauncherRequests} ({@code op} with its {@code body}) and waits for the answer's body;
     * may be called by any thread at any time, also while a collective is in flight.
     *
     * @throws RefusedRequestException when the launcher answers with an MPI error class
     */
    default byte[] request(byte op, byte[] body) throws IOException {
        throw new RefusedRequestException(op == LauncherRequests.SPAWN ? org.weft.adi.ErrorClass.ERR_SPAWN
                : op == LauncherRequests.LOOKUP ? org.weft.adi.ErrorClass.ERR_NAME
                : org.weft.adi.ErrorClass.ERR_SERVICE,
                "a process started without weftrun has no launcher to ask (spawn, names, other jobs' processes)");
    }

    /** The business cards of these job ranks (of any world of the job), once each has published one. */
    default byte[][] cards(int[] ranks) throws IOException {
        return BootstrapProtocol.cardsOf(request(LauncherRequests.CARDS, LauncherRequests.ranks(ranks)));
    }

    /** Replaces this rank's business card (a module started after the exchange). */
    default void putCard(byte[] card) throws IOException {
        request(LauncherRequests.PUT_CARD, card);
    }

    /** Asks the launcher to end the whole job with {@code code}, naming this rank and {@code message}. */
    void abort(int code, String message);

    /** Leaves the job (after the finalize barrier). */
    @Override
    void close();
}
