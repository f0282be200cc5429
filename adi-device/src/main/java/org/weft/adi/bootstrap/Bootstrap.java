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

    /** Asks the launcher to end the whole job with {@code code}, naming this rank and {@code message}. */
    void abort(int code, String message);

    /** Leaves the job (after the finalize barrier). */
    @Override
    void close();
}
