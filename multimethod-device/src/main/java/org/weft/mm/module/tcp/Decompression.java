package org.weft.mm.module.tcp;

import static org.weft.mm.module.tcp.FrameLayout.COMPRESSED_CODEC_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.COMPRESSED_HEADER_LENGTH;
import static org.weft.mm.module.tcp.FrameLayout.COMPRESSED_RAW_LENGTH_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.CONTROL_ENDPOINT;
import static org.weft.mm.module.tcp.FrameLayout.ENDPOINT_OFFSET;
import static org.weft.mm.module.tcp.FrameLayout.HEADER_LENGTH;
import static org.weft.mm.module.tcp.FrameLayout.LENGTH_FIELD;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * The receiving side of compression on one connection: turns a COMPRESSED frame ({@link FrameLayout}) back into the
 * RSR frame inside, checked (the LZ4 decoder that bounds its reads and writes, never the "fast" one that trusts its
 * input). Owned by the thread reading the stream; the buffer is reused, and dropped once it grew large.
 */
final class Decompression {
    private static final int KEEP_CAPACITY = 16 << 20;
    private static final LZ4SafeDecompressor LZ4 = LZ4Factory.fastestInstance().safeDecompressor();

    private ByteBuffer frame = direct(64 * 1024);

    /**
     * The RSR frame inside the COMPRESSED frame {@code in[frameStart, frameEnd)}, from position 0 to its length;
     * throws {@link IllegalArgumentException} saying what is wrong with it.
     */
    ByteBuffer unpack(ByteBuffer in, int frameStart, int frameEnd, int maxFrame) {
        if (frameEnd - frameStart < COMPRESSED_HEADER_LENGTH) {
            throw new IllegalArgumentException("compressed frame of " + (frameEnd - frameStart) + " bytes is too short");
        }
        int codec = in.get(frameStart + COMPRESSED_CODEC_OFFSET);
        if (codec != Compression.CODEC_LZ4) {
            throw new IllegalArgumentException("compressed frame with unknown codec " + codec);
        }
        int rawLength = in.getInt(frameStart + COMPRESSED_RAW_LENGTH_OFFSET);
        if (rawLength < HEADER_LENGTH || rawLength > maxFrame) {
            throw new IllegalArgumentException("compressed frame says " + rawLength + " bytes inside, outside ["
                    + HEADER_LENGTH + ", tcp_max_frame " + maxFrame + "]");
        }
        if (frame.capacity() < rawLength || frame.capacity() > KEEP_CAPACITY) {
            frame = direct(Math.max(rawLength, 64 * 1024));
        }
        frame.order(ByteOrder.LITTLE_ENDIAN).clear(); // the sink may have changed either
        int at = frameStart + COMPRESSED_HEADER_LENGTH;
        int decompressed;
        try {
            decompressed = LZ4.decompress(in, at, frameEnd - at, frame, 0, rawLength);
        } catch (LZ4Exception e) {
            throw new IllegalArgumentException("compressed frame does not decompress: " + e.getMessage(), e);
        }
        if (decompressed != rawLength || frame.getInt(0) + LENGTH_FIELD != rawLength
                || (frame.getShort(LENGTH_FIELD + ENDPOINT_OFFSET) & 0xFFFF) == CONTROL_ENDPOINT) {
            throw new IllegalArgumentException("compressed frame does not hold one whole RSR frame of " + rawLength
                    + " bytes");
        }
        return frame.limit(rawLength).position(0);
    }

    private static ByteBuffer direct(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }
}
