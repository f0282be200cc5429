package org.weft.mm.relay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * A path through the relay: the connection of the rank that asked for it ({@code source}) joined to the one that
 * leads on to its target ({@code target}: the target's reverse connection, or a connection to the next relay), each
 * direction through a bounded {@link Pipe}. Until the target side exists the source is read until its pipe is full,
 * then not at all. A side that ends (FIN) is passed on once its pipe is empty; when both have ended the path closes.
 * Any error closes both sides: the ranks see their connection end and say so. One thread (the relay's).
 */
final class Path {
    /** One side of the path: its connection and its key in the relay's selector. */
    final class Side {
        final SocketChannel channel;
        SelectionKey key;
        boolean ended;
        boolean shutOutput;
        final Pipe out;

        Side(SocketChannel channel, Pipe out) {
            this.channel = channel;
            this.out = out;
        }

        Side other() {
            return this == source ? target : source;
        }

        Path path() {
            return Path.this;
        }
    }

    private final String name;
    private final Consumer<String> log;
    final Side source;
    Side target;
    /** Whether the target's connection is still being made (a connection to the next relay). */
    boolean targetConnecting;
    private final int capacity;
    private boolean closed;

    Path(String name, SocketChannel source, int capacity, Consumer<String> log) {
        this.name = name;
        this.log = log;
        this.capacity = capacity;
        this.source = new Side(source, new Pipe(capacity));
    }

    String name() {
        return name;
    }

    boolean isClosed() {
        return closed;
    }

    /** The target's side, made when its connection exists ({@code connecting}: not yet usable). */
    Side attachTarget(SocketChannel channel, boolean connecting) {
        target = new Side(channel, new Pipe(capacity));
        targetConnecting = connecting;
        return target;
    }

    /** {@code side} can be read: into its pipe while there is room, and on at once (no wait for the next pass). */
    void onReadable(Side side) {
        try {
            while (side.out.hasRoom()) {
                int room = side.out.room();
                int n = side.out.fillFrom(side.channel);
                if (n < 0) {
                    side.ended = true;
                    break;
                }
                if (n < room) {
                    break; // the socket had less than the pipe takes: it is empty, no second read to find out
                }
            }
            Side other = side.other();
            if (other != null && !targetConnecting && side.out.hasData()) {
                side.out.drainTo(other.channel);
            }
            update();
        } catch (IOException e) {
            fail(e);
        }
    }

    /** {@code side} can take bytes: what the other side sent. */
    void onWritable(Side side) {
        try {
            Side other = side.other();
            if (other.out.hasData()) {
                other.out.drainTo(side.channel);
            }
            update();
        } catch (IOException e) {
            fail(e);
        }
    }

    /** After the target's connection was made: what waited goes. */
    void onTargetConnected() {
        targetConnecting = false;
        onWritable(target);
    }

    /** Sets each side's interest from its pipes; passes a side's end on; closes the path when both have ended. */
    void update() throws IOException {
        if (closed) {
            return;
        }
        interest(source);
        if (target != null && !targetConnecting) {
            interest(target);
            if (source.ended && target.ended && !source.out.hasData() && !target.out.hasData()) {
                close();
            }
        }
    }

    private void interest(Side side) throws IOException {
        Side other = side.other();
        int ops = 0;
        if (!side.ended && side.out.hasRoom()) {
            ops |= SelectionKey.OP_READ;
        }
        if (other != null && other.out.hasData()) {
            ops |= SelectionKey.OP_WRITE;
        } else if (other != null && other.ended && !side.shutOutput) {
            side.shutOutput = true;
            side.channel.shutdownOutput();
        }
        if (side.key != null && side.key.isValid() && side.key.interestOps() != ops) {
            side.key.interestOps(ops);
        }
    }

    /**
     * The path broke: both sides close, and the relay says which path and why — unless a rank reset its connection,
     * which a rank leaving at the end of the job does as well as one dying (the launcher tells of that).
     */
    void fail(Exception e) {
        if (!closed && !"Connection reset".equals(e.getMessage())) {
            log.accept("path " + name + " broke: " + e.getMessage());
        }
        close();
    }

    void close() {
        closed = true;
        closeQuietly(source.channel);
        if (target != null) {
            closeQuietly(target.channel);
        }
    }

    /** Bytes carried each way, for the relay's messages. */
    String carried() {
        return source.out.carried() + " B to the target, " + (target == null ? 0 : target.out.carried())
                + " B back";
    }

    /** Puts {@code bytes} in the way of the source's bytes to the target (a request to the next relay). */
    void toTargetFirst(ByteBuffer bytes) {
        source.out.put(bytes);
    }

    static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }
}
