package org.weft.mm.spi;

import java.lang.foreign.MemorySegment;

/**
 * A link's way of moving a large message's data straight from the sender's memory into the receiver's, without the
 * copies in and out of RSRs (after MPICH's large-message transfer, LMT, in Nemesis). The protocol above offers it in
 * its request to send, the receiver starts {@link #receive} into the user's buffer before it answers, and the sender
 * then starts {@link #send} from the user's data; both sides name the transfer by the receiver's request id.
 *
 * <p>Only memory {@link #carries} accepts may be used (a method that hands addresses to native code must copy a Java
 * heap array, which the collector moves, and may find that not worth it for small ones). Thread-safe; completions
 * run on a polling thread.
 */
public interface BulkTransfer {
    /** Whether this link can move {@code memory} in place (its kind and size). */
    boolean carries(MemorySegment memory);

    /** Starts receiving transfer {@code id} into the whole of {@code into}; {@code listener} hears the end. */
    void receive(long id, MemorySegment into, Listener listener);

    /**
     * Gives up receiving transfer {@code id}, started by {@link #receive}, which the sender will not send (the
     * answer that clears it could not go): the link lets go of it and its listener hears that it failed. Nothing
     * happens if the transfer has ended.
     */
    void cancelReceive(long id);

    /** Starts sending the whole of {@code from} as transfer {@code id}; {@code listener} hears the end. */
    void send(long id, MemorySegment from, Listener listener);

    /**
     * {@link #send} with the count of streams the sender's communicator asks for ({@code weft_streams}; 0: the
     * link's own choice); a link without streams ignores it.
     */
    default void send(long id, MemorySegment from, int streams, Listener listener) {
        send(id, from, listener);
    }

    /** What a side of a transfer hears once: its memory is free again, or the transfer failed. */
    interface Listener {
        void done();

        void failed(String why);
    }
}
