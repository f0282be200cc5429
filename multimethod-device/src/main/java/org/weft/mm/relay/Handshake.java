package org.weft.mm.relay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import org.weft.mm.module.relay.RelayRequest;

/**
 * An accepted connection until its {@link RelayRequest} has come whole: read into a buffer of the largest request
 * (a stranger's long length or its silence ends it: {@link RelayServer} closes it), with whatever the sender wrote
 * after the request kept for the path.
 */
final class Handshake {
    final SocketChannel channel;
    final String remote;
    final long deadline;
    private final ByteBuffer bytes = ByteBuffer.allocate(RelayRequest.LENGTH_FIELD + RelayRequest.MAX_LENGTH)
            .order(ByteOrder.LITTLE_ENDIAN);

    Handshake(SocketChannel channel, String remote, long deadline) {
        this.channel = channel;
        this.remote = remote;
        this.deadline = deadline;
    }

    /**
     * Reads what came; returns the whole request (length field first, a view of the buffer) once it is there, else
     * {@code null}. Throws {@link RelayRequest.Refused} for bytes that are no request, {@link IOException} when the
     * connection ends first.
     */
    ByteBuffer read() throws IOException {
        if (channel.read(bytes) < 0) {
            throw new IOException("closed before its request");
        }
        ByteBuffer held = bytes.duplicate().flip().order(ByteOrder.LITTLE_ENDIAN);
        int length = RelayRequest.lengthOf(held);
        if (length < 0 || held.remaining() < length) {
            return null;
        }
        return held.limit(length).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** The bytes that came after the request (the ranks' own), once {@link #read} returned it. */
    ByteBuffer leftover(int requestLength) {
        return bytes.duplicate().flip().position(requestLength);
    }
}
