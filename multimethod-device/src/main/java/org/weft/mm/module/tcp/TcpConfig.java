package org.weft.mm.module.tcp;

import org.weft.adi.param.Parameters;

/** The values of {@link TcpParameters} for one module instance, read and checked once at init. */
record TcpConfig(String ifAddress, int sndbuf, int rcvbuf, long eagerLimit, int maxFrame, int handshakeTimeoutMillis,
        int connectTimeoutMillis, int sendQueueBytes) {

    static TcpConfig from(Parameters p) {
        return new TcpConfig(
                p.get(TcpParameters.IF_ADDRESS),
                intBytes(TcpParameters.SNDBUF.name(), p.get(TcpParameters.SNDBUF), 0),
                intBytes(TcpParameters.RCVBUF.name(), p.get(TcpParameters.RCVBUF), 0),
                p.get(TcpParameters.EAGER_LIMIT),
                intBytes(TcpParameters.MAX_FRAME.name(), p.get(TcpParameters.MAX_FRAME), FrameLayout.HEADER_LENGTH),
                positive(TcpParameters.HANDSHAKE_TIMEOUT.name(), p.get(TcpParameters.HANDSHAKE_TIMEOUT)),
                positive(TcpParameters.CONNECT_TIMEOUT.name(), p.get(TcpParameters.CONNECT_TIMEOUT)),
                intBytes(TcpParameters.SEND_QUEUE.name(), p.get(TcpParameters.SEND_QUEUE), 1));
    }

    /** Netty's frame decoder and socket options take ints: refuse what does not fit rather than wrap. */
    private static int intBytes(String name, long value, int min) {
        if (value < min || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("parameter " + name + ": " + value + " bytes is outside ["
                    + min + ", " + Integer.MAX_VALUE + "]");
        }
        return (int) value;
    }

    private static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException("parameter " + name + ": must be positive, not " + value);
        }
        return value;
    }
}
