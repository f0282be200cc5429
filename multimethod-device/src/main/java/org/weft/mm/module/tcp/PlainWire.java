package org.weft.mm.module.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** A {@link Wire} that is the socket itself: the bytes of the frames travel as they are (inside a site). */
final class PlainWire implements Wire {
    private final SocketChannel socket;

    PlainWire(SocketChannel socket) {
        this.socket = socket;
    }

    @Override
    public SocketChannel socket() {
        return socket;
    }

    @Override
    public int read(ByteBuffer destination) throws IOException {
        return socket.read(destination);
    }

    @Override
    public int write(ByteBuffer source) throws IOException {
        return socket.write(source);
    }

    @Override
    public long write(ByteBuffer[] sources, int offset, int length) throws IOException {
        return socket.write(sources, offset, length);
    }

    @Override
    public boolean hasBufferedInput() {
        return false;
    }

    @Override
    public boolean hasPendingOutput() {
        return false;
    }

    @Override
    public int flush() {
        return 0;
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
