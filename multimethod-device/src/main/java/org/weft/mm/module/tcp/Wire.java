package org.weft.mm.module.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.GatheringByteChannel;
import java.nio.channels.SocketChannel;

/**
 * The bytes of one tcp connection as its {@link TcpLink} writes them and its {@link InboundStream} reads them: the
 * socket itself ({@link PlainWire}) or a layer over it that turns the bytes into others on the wire (encryption).
 * Frames, HELLO and ordering live above this seam; what travels on the socket lives below it.
 *
 * <p>Threading: one thread at a time writes (the link's lock) and one thread at a time reads (the stream's busy
 * flag); a write and a read may run at once. Every call is non-blocking: {@code read} returns 0 when nothing can be
 * had without waiting, {@code write} the bytes it took (0 when it can take none now), as a non-blocking
 * {@link SocketChannel} does.
 */
interface Wire extends ByteChannel, GatheringByteChannel {
    /** The socket under this wire, for connecting and for the doorbell's selector. */
    SocketChannel socket();

    /**
     * Bytes this wire has read from the socket that {@link #read} would return without reading the socket again:
     * a reader must not wait on the socket for them.
     */
    boolean hasBufferedInput();

    /** Bytes a {@link #write} took that are not on the socket yet: {@link #flush} must be called again. */
    boolean hasPendingOutput();

    /**
     * Takes {@code raw}, bytes read from the socket before this wire was made (by the acceptor, past the HELLO), as
     * the first the socket gave; false when the reader should take them as they are, read bytes (plaintext).
     */
    default boolean preload(ByteBuffer raw) {
        return false;
    }

    /**
     * Whether frames can go out: always for the socket itself; after the handshake for a session over it, which
     * needs the peer (so a close does not wait for a peer that never answered).
     */
    default boolean isEstablished() {
        return true;
    }

    /** Writes what this wire holds for the socket, as much as it takes; returns the bytes that went out. */
    int flush() throws IOException;

    @Override
    default long write(ByteBuffer[] sources) throws IOException {
        return write(sources, 0, sources.length);
    }
}
