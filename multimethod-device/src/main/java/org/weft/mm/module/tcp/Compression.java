package org.weft.mm.module.tcp;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;

/**
 * The compressing side of one link ({@code tcp_compress=lz4} on its path): an RSR frame of at least
 * {@code tcp_compress_min} bytes goes as a COMPRESSED frame ({@link FrameLayout}) when LZ4 makes it smaller. Data
 * that does not compress costs little: the first {@value #SAMPLE} bytes of the payload are compressed first, and the
 * frame goes raw, without staging, unless the sample shrinks to {@value #WORTH_PERCENT} % or less. Under the link's
 * lock; the staging and sample buffers are the link's own and reused.
 */
final class Compression {
    /** Bytes of a payload compressed to tell whether the rest is worth it. */
    static final int SAMPLE = 4096;
    /** A sample (or a frame) compressed to more than this share of its size goes raw. */
    static final int WORTH_PERCENT = 85;
    static final int CODEC_LZ4 = 1;

    private static final LZ4Factory LZ4 = LZ4Factory.fastestInstance();

    private final LZ4Compressor compressor = LZ4.fastCompressor();
    private final int minBytes;
    /** When the link chooses ({@code auto}), what decides each frame; null: every frame is tried ({@code lz4}). */
    private final CompressionChoice choice;
    /** The frame as it would go raw, before compressing it (payloads may be heap arrays of any type). */
    private ByteBuffer staging = direct(64 * 1024);
    private MemorySegment stagingSegment = MemorySegment.ofBuffer(staging);
    private final ByteBuffer sample = direct(SAMPLE);
    private final MemorySegment sampleSegment = MemorySegment.ofBuffer(sample);
    private final ByteBuffer sampleOut = direct(LZ4.fastCompressor().maxCompressedLength(SAMPLE));
    private long rawBytes;
    private long compressedBytes;
    private long framesCompressed;
    private long framesSkipped;

    Compression(int minBytes, CompressionChoice choice) {
        this.minBytes = minBytes;
        this.choice = choice;
    }

    /** Which codec {@link #CODEC_LZ4} runs here (native through JNI, or Java), for the report. */
    static String implementation() {
        return LZ4.toString();
    }

    /** Whether an RSR frame of {@code frameLength} bytes is worth trying at all. */
    boolean considers(int frameLength) {
        return frameLength >= minBytes;
    }

    /**
     * Appends the RSR frame to {@code out} compressed, when its sample and then the whole compress well (and, when
     * the link chooses, when compressing pays on its wire: {@code socketBehind} says bytes written before still wait
     * for the socket); returns false, having appended nothing, when it should go raw.
     */
    boolean appendCompressed(OutboundBuffer out, int frameLength, int endpointId, int handlerId, ByteBuffer header,
                             MemorySegment payload, boolean socketBehind) {
        if (choice != null && !choice.tries(socketBehind)) {
            return false;
        }
        if (!sampleCompresses(payload)) {
            framesSkipped++;
            return false;
        }
        stage(frameLength, endpointId, handlerId, header, payload);
        int bound = compressor.maxCompressedLength(frameLength);
        int at = out.claim(FrameLayout.COMPRESSED_HEADER_LENGTH + bound);
        ByteBuffer target = out.buffer();
        int compressed = compressor.compress(staging, 0, frameLength, target,
                at + FrameLayout.COMPRESSED_HEADER_LENGTH, bound);
        if ((long) compressed * 100 > (long) frameLength * WORTH_PERCENT) {
            framesSkipped++; // the sample was not the whole story: send what is staged as it is
            target.put(at, staging, 0, frameLength);
            out.commit(at + frameLength);
            return true;
        }
        Frames.putCompressedHeader(target, at, compressed, CODEC_LZ4, frameLength);
        out.commit(at + FrameLayout.COMPRESSED_HEADER_LENGTH + compressed);
        rawBytes += frameLength;
        compressedBytes += FrameLayout.COMPRESSED_HEADER_LENGTH + compressed;
        framesCompressed++;
        return true;
    }

    private boolean sampleCompresses(MemorySegment payload) {
        int length = (int) Math.min(SAMPLE, payload.byteSize());
        if (length < SAMPLE / 4) {
            return true; // a small payload: the whole frame is its own sample
        }
        MemorySegment.copy(payload, 0, sampleSegment, 0, length);
        long start = choice == null ? 0 : System.nanoTime();
        int compressed = compressor.compress(sample, 0, length, sampleOut, 0, sampleOut.capacity());
        boolean compresses = (long) compressed * 100 <= (long) length * WORTH_PERCENT;
        if (choice != null) {
            choice.sampled(length, System.nanoTime() - start, compresses);
        }
        return compresses;
    }

    /** The raw frame into {@link #staging}, grown as needed. */
    private void stage(int frameLength, int endpointId, int handlerId, ByteBuffer header, MemorySegment payload) {
        if (staging.capacity() < frameLength) {
            staging = direct(Math.max(frameLength, 2 * staging.capacity()));
            stagingSegment = MemorySegment.ofBuffer(staging);
        }
        Frames.putRsr(staging, stagingSegment, 0, frameLength, endpointId, handlerId, header, payload);
    }

    /** For the report (read without the lock: may lag). */
    String describe() {
        String ratio = compressedBytes == 0 ? "-" : String.format("%.1f:1", (double) rawBytes / compressedBytes);
        return "compression " + (choice == null ? "lz4" : "lz4 " + choice.describe()) + ": " + framesCompressed
                + " frames " + rawBytes + " -> " + compressedBytes + " bytes (" + ratio + "), " + framesSkipped
                + " sent raw (did not compress)";
    }

    long framesCompressed() {
        return framesCompressed;
    }

    long framesSkipped() {
        return framesSkipped;
    }

    private static ByteBuffer direct(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }
}
