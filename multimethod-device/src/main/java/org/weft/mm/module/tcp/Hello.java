package org.weft.mm.module.tcp;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The contents of a HELLO frame (layout in {@link FrameLayout}): who connects, for which job, with what proof. */
record Hello(int version, int rank, String jobId, String secret) {
    /** Longest job id or secret a HELLO may carry (u16 length). */
    static final int MAX_STRING = 0xFFFF;

    Hello {
        if (jobIdBytes(jobId).length > MAX_STRING || secret.getBytes(StandardCharsets.UTF_8).length > MAX_STRING) {
            throw new IllegalArgumentException("job id or secret longer than " + MAX_STRING + " bytes");
        }
    }

    byte[] jobIdBytes() {
        return jobIdBytes(jobId);
    }

    byte[] secretBytes() {
        return secret.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] jobIdBytes(String jobId) {
        return jobId.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Checks the HELLO body (after the ids) against this process's job; returns the sender's rank, or throws
     * {@link RejectedHelloException} saying what was wrong. The secret is compared in constant time.
     */
    static int verify(ByteBuf body, int version, String jobId, String secret, int worldSize) {
        if (body.readableBytes() < 4 + 2 + 4 + 2) {
            throw new RejectedHelloException("HELLO too short");
        }
        if (body.readIntLE() != FrameLayout.MAGIC) {
            throw new RejectedHelloException("bad magic (not a Weft peer)");
        }
        int peerVersion = body.readUnsignedShortLE();
        if (peerVersion != version) {
            throw new RejectedHelloException("protocol version " + peerVersion + ", expected " + version);
        }
        int rank = body.readIntLE();
        byte[] peerJob = readString(body);
        byte[] peerSecret = readString(body);
        if (body.isReadable()) {
            throw new RejectedHelloException("trailing bytes after HELLO");
        }
        // Check the secret first and in constant time: the job id is not secret, the secret is.
        boolean secretOk = MessageDigest.isEqual(peerSecret, secret.getBytes(StandardCharsets.UTF_8));
        boolean jobOk = MessageDigest.isEqual(peerJob, jobIdBytes(jobId));
        if (!secretOk) {
            throw new RejectedHelloException("wrong job secret");
        }
        if (!jobOk) {
            throw new RejectedHelloException("HELLO for another job");
        }
        if (rank < 0 || rank >= worldSize) {
            throw new RejectedHelloException("rank " + rank + " outside world of size " + worldSize);
        }
        return rank;
    }

    private static byte[] readString(ByteBuf body) {
        if (body.readableBytes() < 2) {
            throw new RejectedHelloException("HELLO truncated");
        }
        int length = body.readUnsignedShortLE();
        if (body.readableBytes() < length) {
            throw new RejectedHelloException("HELLO truncated");
        }
        byte[] bytes = new byte[length];
        body.readBytes(bytes);
        return bytes;
    }

    /** A HELLO that does not prove membership of this job. */
    static final class RejectedHelloException extends RuntimeException {
        RejectedHelloException(String reason) {
            super(reason, null, false, false);
        }
    }
}
