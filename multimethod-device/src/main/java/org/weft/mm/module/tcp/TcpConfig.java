package org.weft.mm.module.tcp;

import org.weft.adi.param.Parameters;
import org.weft.mm.tls.TlsPolicy;

/** The values of {@link TcpParameters} for one module instance, read and checked once at init. */
record TcpConfig(String ifAddress, int sndbuf, int rcvbuf, long eagerLimit, int maxFrame, int handshakeTimeoutMillis,
        int connectTimeoutMillis, int lostPeerWaitMillis, int sendQueueBytes,
        PathScoped<AggregationPolicy> aggregate,
        PathScoped<CompressMode> compress, int compressMin, TlsPolicy tls,
        PathTable paths) {

    static TcpConfig from(Parameters p) {
        AggregationPolicy fixed = aggregation(p, AggregationPolicy.Mode.FIXED);
        AggregationPolicy adaptive = aggregation(p, AggregationPolicy.Mode.ADAPTIVE);
        return new TcpConfig(
                p.get(TcpParameters.IF_ADDRESS),
                intBytes(TcpParameters.SNDBUF.name(), p.get(TcpParameters.SNDBUF), 0),
                intBytes(TcpParameters.RCVBUF.name(), p.get(TcpParameters.RCVBUF), 0),
                p.get(TcpParameters.EAGER_LIMIT),
                intBytes(TcpParameters.MAX_FRAME.name(), p.get(TcpParameters.MAX_FRAME), FrameLayout.HEADER_LENGTH),
                positive(TcpParameters.HANDSHAKE_TIMEOUT.name(), p.get(TcpParameters.HANDSHAKE_TIMEOUT)),
                positive(TcpParameters.CONNECT_TIMEOUT.name(), p.get(TcpParameters.CONNECT_TIMEOUT)),
                nonNegative(TcpParameters.LOST_PEER_WAIT.name(), p.get(TcpParameters.LOST_PEER_WAIT)),
                intBytes(TcpParameters.SEND_QUEUE.name(), p.get(TcpParameters.SEND_QUEUE), 1),
                PathScoped.parse(TcpParameters.AGGREGATE.name(), p.get(TcpParameters.AGGREGATE),
                        text -> switch (AggregationPolicy.parseMode(text)) {
                            case OFF -> AggregationPolicy.OFF;
                            case FIXED -> fixed;
                            case ADAPTIVE -> adaptive;
                        }, AggregationPolicy.OFF),
                PathScoped.parse(TcpParameters.COMPRESS.name(), p.get(TcpParameters.COMPRESS), TcpConfig::codec,
                        CompressMode.OFF),
                intBytes(TcpParameters.COMPRESS_MIN.name(), p.get(TcpParameters.COMPRESS_MIN), 1),
                tlsPolicy(p.get(TcpParameters.TLS)),
                PathTable.of(p.get(TcpParameters.PATH_DEFAULTS), p.get(TcpParameters.PATH_FILE),
                        p.get(TcpParameters.PATHS)));
    }

    private static TlsPolicy tlsPolicy(String value) {
        try {
            return TlsPolicy.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("parameter " + TcpParameters.TLS.name() + ": " + e.getMessage());
        }
    }

    private static AggregationPolicy aggregation(Parameters p, AggregationPolicy.Mode mode) {
        return AggregationPolicy.of(mode,
                positive(TcpParameters.AGGREGATE_WINDOW.name(), p.get(TcpParameters.AGGREGATE_WINDOW)),
                positive(TcpParameters.AGGREGATE_COUNT.name(), p.get(TcpParameters.AGGREGATE_COUNT)),
                intBytes(TcpParameters.AGGREGATE_BYTES.name(), p.get(TcpParameters.AGGREGATE_BYTES), 1),
                positive(TcpParameters.AGGREGATE_FRAME_COST.name(), p.get(TcpParameters.AGGREGATE_FRAME_COST)));
    }

    /** What {@code tcp_compress} does on a path. */
    enum CompressMode {
        /** Never. */
        OFF,
        /** Every frame whose sample compresses. */
        LZ4,
        /** Where the link finds that it pays ({@link CompressionChoice}). */
        AUTO
    }

    /** {@code lz4} compresses, {@code auto} where it pays, {@code off} not. */
    private static CompressMode codec(String text) {
        return switch (text) {
            case "lz4" -> CompressMode.LZ4;
            case "auto" -> CompressMode.AUTO;
            case "off" -> CompressMode.OFF;
            default -> throw new IllegalArgumentException("codec '" + text + "' is not lz4, auto or off");
        };
    }

    /** Netty's frame decoder and socket options take ints: refuse what does not fit rather than wrap. */
    private static int intBytes(String name, long value, int min) {
        if (value < min || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("parameter " + name + ": " + value + " bytes is outside ["
                    + min + ", " + Integer.MAX_VALUE + "]");
        }
        return (int) value;
    }

    private static int nonNegative(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("parameter " + name + ": must not be negative, not " + value);
        }
        return value;
    }

    private static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException("parameter " + name + ": must be positive, not " + value);
        }
        return value;
    }
}
