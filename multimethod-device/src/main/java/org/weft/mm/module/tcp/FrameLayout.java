package org.weft.mm.module.tcp;

/**
 * The bytes of the {@code tcp} wire protocol. All integers are little-endian, whatever the hosts' order.
 *
 * <pre>
 * Every frame:
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |          length (int32): number of bytes after this field      |
 *  +-------------------------------+-------------------------------+
 *  |       endpointId (u16)        |        handlerId (u16)        |
 *  +-------------------------------+-------------------------------+
 *  |                   body (length - 4 bytes)                    ...
 *  +---------------------------------------------------------------+
 *
 * An RSR frame's body is the sender's header bytes followed by its payload bytes, as given to send().
 *
 * Control frames have endpointId 0xFFFF (no RSR endpoint has that id):
 *
 * HELLO (handlerId 1), the first frame on every connection, from the connecting side:
 *  +---------------------------------------------------------------+
 *  |                     magic "WEFT" (4 ASCII bytes)              |
 *  +-------------------------------+-------------------------------+
 *  |    protocol version (u16)     |                               |
 *  +-------------------------------+                               +
 *  |               sender's world rank (int32)                     |
 *  +---------------------------------------------------------------+
 *  |               target's world rank (int32)                     |
 *  +-------------------------------+-------------------------------+
 *  |     flags (u16): bit 0 TLS    |     jobId length (u16)        |
 *  +-------------------------------+-------------------------------+
 *  |                         jobId (UTF-8)                       ...
 *  +-------------------------------+-------------------------------+
 *  |                     nonce (16 random bytes)                 ...
 *  +---------------------------------------------------------------+
 *  |  proof = HMAC-SHA256(key = job secret, "weft tcp hello" | version | rank | target | flags | jobId | nonce)
 *  +---------------------------------------------------------------+
 *
 * With the TLS flag, a TLS 1.3 session (SSLEngine, both ends presenting certificates of their ranks) starts right
 * after the HELLO, and every later frame travels inside it; without it, frames follow as they are.
 *
 * BYE (handlerId 2, empty body): "I am shutting down", sent on every connection (either direction) before a
 * deliberate close, so that the other side takes the close that follows as normal and says nothing.
 *
 * MOVED (handlerId 3, empty body): the last frame on a connection its sender dialled while the peer dialled it too;
 * the sender's later RSRs come on the peer's connection, which the lower rank dialled.
 * SWITCHED (handlerId 4, empty body): the first frame on that connection; the receiver delivers what follows only
 * after the MOVED of the retired connection, so the sender's RSRs keep their order across the switch.
 *
 * COMPRESSED (handlerId 5): one whole RSR frame (length field included), compressed (tcp_compress):
 *  +---------------+-----------------------------------------------+
 *  | codec (u8)    |        reserved (3 bytes, zero)                |
 *  +---------------+-----------------------------------------------+
 *  |     raw length (int32): bytes of the frame once decompressed   |
 *  +---------------------------------------------------------------+
 *  |                compressed bytes (codec 1: one LZ4 block)     ...
 *  +---------------------------------------------------------------+
 * The receiver delivers the frame inside as if it had come as it is; its raw length is held to tcp_max_frame, and
 * a block that does not decompress to exactly that many bytes, or an inner frame that is not one whole RSR frame,
 * closes the connection.
 *
 * Wide-area paths (between sites) stripe large messages over extra connections ("stripes", MPWide's channels), each
 * dialled by the sending side and used in that direction only:
 *
 * STRIPE_HELLO (handlerId 6): the first frame on a stripe; the body of a HELLO. The connection carries CHUNKs and
 * PROBEs only; the peer does not send on it (but its BYE).
 * CHUNK (handlerId 7), on a stripe: u64 transfer id (the receiver's, from its CTS), u64 offset, then bytes: a piece
 * of a striped message; pieces of one message come in any order over any of the sender's stripes.
 * PING (handlerId 8), PONG (handlerId 9), on the connection the pair shares: u64 the pinger's clock; a PONG echoes
 * the PING's body at once (the path's round trip). A PING of an adaptive aggregation's link carries a second u64,
 * {@link #AGGREGATION_PING}, so that its PONG goes to that link's policy, not to a path probe.
 * PROBE (handlerId 10), on a stripe: u64 phase, u64 the phase's duration in ns, then bytes to be counted and
 * dropped; once the receiver has seen the phase's bytes for its duration (from the first) it answers PROBE_RESULT
 * (handlerId 12) on the shared connection: u64 phase, u64 bytes per second it received over the second half (the
 * streams past slow start); the sender then stops the phase. (handlerId 11 is not used.)
 * STRIPES (handlerId 13), on the connection the pair shares, before the sender dials new stripes: u64 how many,
 * u64 the path's round trip in ns as the sender measured it (0: not measured). The receiver gives HELLOs that come
 * meanwhile the time such a burst takes to set up ({@link SetupAllowance}) on top of tcp_handshake_timeout.
 * STRIPES_FAILED (handlerId 14), on the connection the pair shares: UTF-8 text, why a stripe of the sender's failed
 * (at most {@link #MOST_REASON_BYTES} bytes are read). The sender stripes nothing more to this peer; the receiver
 * fails every striped message it is receiving from the sender (chunks of them that still come are dropped), since
 * it cannot tell which lost bytes on the failed stripe, or were never sent (a stripe the receiver closed before it
 * read its STRIPE_HELLO fails only on the sender's side).
 * </pre>
 *
 * A frame whose total size (length field included) exceeds {@code tcp_max_frame} closes the connection.
 */
final class FrameLayout {
    /** Size of the length field. */
    static final int LENGTH_FIELD = 4;
    /** Offset of endpointId and handlerId within the bytes after the length field. */
    static final int ENDPOINT_OFFSET = 0;
    static final int HANDLER_OFFSET = 2;
    /** Bytes after the length field that precede the body. */
    static final int IDS_LENGTH = 4;
    /** Length field + ids: the bytes before the body. */
    static final int HEADER_LENGTH = LENGTH_FIELD + IDS_LENGTH;

    /** The largest endpoint id an RSR may use; 0xFFFF is kept for control frames. */
    static final int MAX_ENDPOINT_ID = 0xFFFE;
    static final int MAX_HANDLER_ID = 0xFFFF;

    static final int CONTROL_ENDPOINT = 0xFFFF;
    static final int HELLO_HANDLER = 1;
    static final int BYE_HANDLER = 2;
    static final int MOVED_HANDLER = 3;
    static final int SWITCHED_HANDLER = 4;
    static final int COMPRESSED_HANDLER = 5;
    /** A COMPRESSED frame's bytes before the compressed ones: frame header, codec and reserved, raw length. */
    static final int COMPRESSED_CODEC_OFFSET = HEADER_LENGTH;
    static final int COMPRESSED_RAW_LENGTH_OFFSET = HEADER_LENGTH + 4;
    static final int COMPRESSED_HEADER_LENGTH = HEADER_LENGTH + 8;
    static final int STRIPE_HELLO_HANDLER = 6;
    static final int CHUNK_HANDLER = 7;
    static final int PING_HANDLER = 8;
    static final int PONG_HANDLER = 9;
    /** The second u64 of an adaptive aggregation's PING (any other value, or none: a path probe's). */
    static final long AGGREGATION_PING = 0x5745_4654_4147_4752L;
    static final int PROBE_HANDLER = 10;
    static final int PROBE_RESULT_HANDLER = 12;
    static final int STRIPES_HANDLER = 13;
    static final int STRIPES_FAILED_HANDLER = 14;
    /** The most of a STRIPES_FAILED reason a receiver reads (a peer's text goes into its log and errors). */
    static final int MOST_REASON_BYTES = 1024;
    /** Bytes of a CHUNK's body before its data: transfer id, offset. */
    static final int CHUNK_HEAD = 16;

    /** "WEFT" read as a little-endian int32. */
    static final int MAGIC = 'W' | 'E' << 8 | 'F' << 16 | 'T' << 24;
    static final int PROTOCOL_VERSION = 3;

    private FrameLayout() {
    }
}
