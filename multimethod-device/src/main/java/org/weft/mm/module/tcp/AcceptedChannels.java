package org.weft.mm.module.tcp;

import io.netty.channel.Channel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.internal.SocketUtils;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * Netty's NIO server channel, making accepted channels that can give their socket away: Netty accepts a connection
 * and checks its HELLO, then {@link InboundConnection} hands the socket to an {@link InboundStream} that the
 * callers' threads read directly.
 */
final class AcceptedChannels {
    private AcceptedChannels() {
    }

    /** The listening channel; accepts as {@link NioServerSocketChannel} does, wrapping each in {@link Accepted}. */
    static final class Server extends NioServerSocketChannel {
        @Override
        protected int doReadMessages(List<Object> buf) throws Exception {
            SocketChannel socket = SocketUtils.accept(javaChannel());
            if (socket == null) {
                return 0;
            }
            try {
                buf.add(new Accepted(this, socket));
                return 1;
            } catch (RuntimeException | Error e) {
                socket.close();
                throw e;
            }
        }
    }

    /** An accepted connection whose underlying non-blocking socket is reachable from this package. */
    static final class Accepted extends NioSocketChannel {
        /** How messages name the way the peer comes by when not straight to this process's listener, else empty. */
        private final String via;
        /** The wire its bytes go through once its HELLO is verified (TLS or the socket itself); null before. */
        private volatile Wire wire;

        Accepted(Channel parent, SocketChannel socket) {
            this(parent, socket, "");
        }

        Accepted(Channel parent, SocketChannel socket, String via) {
            super(parent, socket);
            this.via = via;
        }

        /** The peer's address as messages name it, with the way it comes by ({@code , through relay b (...)}). */
        String describeRemote() {
            return remoteAddress() + (via.isEmpty() ? "" : ", " + via);
        }

        /** Its bytes go through {@code handedTo} from now on, both ways: Netty must not write on it any more. */
        void handedTo(Wire handedTo) {
            wire = handedTo;
        }

        /** The wire it was handed to, or null while Netty still has it. */
        Wire wire() {
            return wire;
        }

        /** The socket itself; read it only after Netty stopped reading ({@code autoRead} off). */
        SocketChannel socket() {
            return javaChannel();
        }
    }
}
