package org.weft.mm.relay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * One direction of a path through the relay: a fixed buffer that the sender's connection is read into and the
 * receiver's connection written from. It never grows: when it is full the relay stops reading the sender, whose
 * TCP window then closes (back-pressure, not memory). Bytes pass through unread. One thread (the relay's).
 */
final class Pipe {
    private final ByteBuffer buffer;
    /** The bytes held are {@code [readAt, writeAt)}. */
    private int readAt;
    private int writeAt;
    /** Bytes that went through, for the relay's messages. */
    private long carried;

    Pipe(int capacity) {
        buffer = ByteBuffer.allocateDirect(capacity);
    }

    boolean hasData() {
        return writeAt > readAt;
    }

    boolean hasRoom() {
        return writeAt < buffer.capacity() || readAt > 0;
    }

    /** Bytes the next {@link #fillFrom} can take at most. */
    int room() {
        return writeAt == buffer.capacity() ? readAt : buffer.capacity() - writeAt; // see makeRoom
    }

    long carried() {
        return carried;
    }

    /** Takes {@code bytes} (all of them: the caller made sure they fit, e.g. a request in front of the rest). */
    void put(ByteBuffer bytes) {
        makeRoom();
        buffer.limit(buffer.capacity()).position(writeAt);
        buffer.put(bytes);
        writeAt = buffer.position();
    }

    /** Reads what {@code from} has, as much as fits; returns the bytes read, -1 at its end. */
    int fillFrom(ReadableByteChannel from) throws IOException {
        makeRoom();
        buffer.limit(buffer.capacity()).position(writeAt);
        int n = from.read(buffer);
        if (n > 0) {
            writeAt += n;
        }
        return n;
    }

    /** Writes what is held to {@code to}, as much as it takes; returns the bytes written. */
    int drainTo(WritableByteChannel to) throws IOException {
        buffer.limit(writeAt).position(readAt);
        int n = to.write(buffer);
        readAt += n;
        carried += n;
        if (readAt == writeAt) {
            readAt = 0;
            writeAt = 0;
        }
        return n;
    }

    /** When the end is reached and bytes were written from the front, slides what is left to the front. */
    private void makeRoom() {
        if (writeAt == buffer.capacity() && readAt > 0) {
            buffer.limit(writeAt).position(readAt);
            buffer.compact();
            writeAt -= readAt;
            readAt = 0;
        }
    }
}
