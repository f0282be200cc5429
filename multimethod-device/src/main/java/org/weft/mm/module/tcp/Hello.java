package org.weft.mm.module.tcp;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.function.IntFunction;
import org.weft.adi.bootstrap.BootstrapProtocol;

/**
 * The contents of a HELLO frame (layout in {@link FrameLayout}): who connects, to whom, for which job, and the proof
 * that it holds the job's secret — {@code HMAC-SHA256(secret, transcript)} over a fresh random nonce, so the secret
 * never travels (connections between sites cross networks nobody controls). The proof names its target rank, so a
 * captured HELLO is worthless at another process; each process refuses a nonce it has seen, so it is worthless
 * again at the same one.
 */
record Hello(int version, int rank, int target, int flags, String jobId, byte[] nonce, byte[] proof) {
    /** Longest job id a HELLO may carry (u16 length). */
    static final int MAX_STRING = 0xFFFF;
    static final int NONCE_LENGTH = 16;
    static final int PROOF_LENGTH = 32;
    /** Flag: TLS follows the HELLO on this connection (signed with the rest, so nobody on the way can strip it). */
    static final int TLS = 1;
    private static final byte[] DOMAIN = "weft tcp hello".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();

    Hello {
        if (jobIdBytes(jobId).length > MAX_STRING) {
            throw new IllegalArgumentException("job id longer than " + MAX_STRING + " bytes");
        }
        if (nonce.length != NONCE_LENGTH || proof.length != PROOF_LENGTH) {
            throw new IllegalArgumentException("a HELLO carries a " + NONCE_LENGTH + "-byte nonce and a "
                    + PROOF_LENGTH + "-byte proof");
        }
    }

    /** A HELLO from {@code rank} to {@code target} with no flags, proving {@code secret} over a fresh nonce. */
    static Hello signed(int version, int rank, int target, String jobId, String secret) {
        return signed(version, rank, target, 0, jobId, secret);
    }

    /** A HELLO from {@code rank} to {@code target} with {@code flags}, proving {@code secret} over a fresh nonce. */
    static Hello signed(int version, int rank, int target, int flags, String jobId, String secret) {
        byte[] nonce = new byte[NONCE_LENGTH];
        RANDOM.nextBytes(nonce);
        return new Hello(version, rank, target, flags, jobId, nonce,
                BootstrapProtocol.proof(secret, transcript(version, rank, target, flags, jobIdBytes(jobId), nonce)));
    }

    /** Whether TLS follows this HELLO. */
    boolean announcesTls() {
        return (flags & TLS) != 0;
    }

    byte[] jobIdBytes() {
        return jobIdBytes(jobId);
    }

    private static byte[] jobIdBytes(String jobId) {
        return jobId.getBytes(StandardCharsets.UTF_8);
    }

    /** What the proof covers: everything the HELLO claims, and its nonce. */
    private static byte[] transcript(int version, int rank, int target, int flags, byte[] jobId, byte[] nonce) {
        return ByteBuffer.allocate(DOMAIN.length + 2 + 4 + 4 + 2 + jobId.length + nonce.length)
                .order(ByteOrder.LITTLE_ENDIAN).put(DOMAIN).putShort((short) version).putInt(rank).putInt(target)
                .putShort((short) flags).put(jobId).put(nonce).array();
    }

    /**
     * Checks the HELLO body (after the ids) against this process ({@code myRank} of {@code worldSize}) and its job
     * (the proof's key is {@code secretOf} the rank the HELLO claims);
     * returns the verified HELLO (its sender's rank, its flags), or throws {@link RejectedHelloException} saying what was wrong. {@code seenNonces}
     * collects the nonces this process has accepted (hex).
     */
    static Hello verify(ByteBuf body, int version, String jobId, IntFunction<String> secretOf, int worldSize,
                        int myRank, Set<String> seenNonces) {
        if (body.readableBytes() < 4 + 2 + 4 + 4 + 2 + 2) {
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
        int target = body.readIntLE();
        int flags = body.readUnsignedShortLE();
        byte[] peerJob = readString(body);
        if (body.readableBytes() != NONCE_LENGTH + PROOF_LENGTH) {
            throw new RejectedHelloException("HELLO truncated or with trailing bytes");
        }
        byte[] nonce = new byte[NONCE_LENGTH];
        byte[] proof = new byte[PROOF_LENGTH];
        body.readBytes(nonce).readBytes(proof);
        // the key the claimed rank must prove: the job's secret, or the port link's for another job's process
        byte[] expected = BootstrapProtocol.proof(secretOf.apply(rank),
                transcript(peerVersion, rank, target, flags, peerJob, nonce));
        boolean jobOk = MessageDigest.isEqual(peerJob, jobIdBytes(jobId));
        if (!MessageDigest.isEqual(proof, expected)) {
            throw new RejectedHelloException(jobOk ? "wrong job secret" : "HELLO for another job");
        }
        if (!jobOk) {
            throw new RejectedHelloException("HELLO for another job");
        }
        if (target != myRank) {
            throw new RejectedHelloException("HELLO meant for rank " + target + " (replayed?)");
        }
        if (rank < 0 || rank >= worldSize) {
            throw new RejectedHelloException("rank " + rank + " outside a job of at most " + worldSize + " ranks");
        }
        if (!seenNonces.add(HexFormat.of().formatHex(nonce))) {
            throw new RejectedHelloException("replayed HELLO (nonce seen before)");
        }
        return new Hello(peerVersion, rank, target, flags, new String(peerJob, StandardCharsets.UTF_8), nonce, proof);
    }

    private static byte[] readString(ByteBuf body) {
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
