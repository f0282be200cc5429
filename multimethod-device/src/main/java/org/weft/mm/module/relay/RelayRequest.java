package org.weft.mm.module.relay;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import org.weft.adi.bootstrap.BootstrapProtocol;

/**
 * What a connection to a relay asks for, first thing on it, with the proof that its sender holds the job's secret
 * ({@code HMAC-SHA256(secret, "weft relay request" | every field before the proof)}, over a fresh nonce, so the
 * secret never travels and a captured request is worthless again at the same relay). After it the connection
 * carries the ranks' own bytes — a tcp HELLO and frames, end to end — which the relay forwards without reading.
 *
 * <pre>
 *  length (u32, of what follows) | magic "WRLY" | version (u16) | kind (u8) | rank (i32) | target (i32) |
 *  session (i64) | jobId (u16 length + UTF-8) | next relay (u16 length + UTF-8 "hosts:port", may be empty) |
 *  nonce (16) | proof (32)                                                       (little-endian)
 * </pre>
 *
 * Kinds: {@link Kind#REGISTER} (a rank's control connection: the relay asks for reverse connections on it),
 * {@link Kind#CONNECT} (a rank's path to {@code target}: served here when the target registered here, else passed
 * on to {@code next relay}), {@link Kind#FORWARD} (the same from a relay: served here or refused, never passed on),
 * {@link Kind#ACCEPT} (a rank's reverse connection for {@code session}, which the relay asked for).
 *
 * @param rank the rank that sends it ({@code -1} for a relay's own FORWARD)
 */
public record RelayRequest(Kind kind, int rank, int target, long session, String jobId, String nextRelay,
                           byte[] nonce, byte[] proof) {
    /** The largest request a relay reads before it refuses the connection. */
    public static final int MAX_LENGTH = 4096;
    public static final int LENGTH_FIELD = 4;
    static final int VERSION = 1;
    private static final int MAGIC = 'W' | 'R' << 8 | 'L' << 16 | 'Y' << 24;
    private static final int NONCE_LENGTH = 16;
    private static final int PROOF_LENGTH = 32;
    private static final byte[] DOMAIN = "weft relay request".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** What the connection is for. */
    public enum Kind { REGISTER, CONNECT, FORWARD, ACCEPT }

    /** A request proving {@code secret} over a fresh nonce. */
    public static RelayRequest signed(Kind kind, int rank, int target, long session, String jobId, String nextRelay,
                                      String secret) {
        byte[] nonce = new byte[NONCE_LENGTH];
        RANDOM.nextBytes(nonce);
        RelayRequest unsigned = new RelayRequest(kind, rank, target, session, jobId, nextRelay, nonce,
                new byte[PROOF_LENGTH]);
        return new RelayRequest(kind, rank, target, session, jobId, nextRelay, nonce,
                BootstrapProtocol.proof(secret, unsigned.signedPart()));
    }

    /** The request as it goes on the wire, length field first. */
    public byte[] encode() {
        byte[] signed = signedPart();
        return ByteBuffer.allocate(LENGTH_FIELD + signed.length + PROOF_LENGTH).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(signed.length + PROOF_LENGTH).put(signed).put(proof).array();
    }

    private byte[] signedPart() {
        byte[] job = jobId.getBytes(StandardCharsets.UTF_8);
        byte[] next = nextRelay.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + 2 + 1 + 4 + 4 + 8 + 2 + job.length + 2 + next.length + NONCE_LENGTH)
                .order(ByteOrder.LITTLE_ENDIAN).putInt(MAGIC).putShort((short) VERSION).put((byte) kind.ordinal())
                .putInt(rank).putInt(target).putLong(session).putShort((short) job.length).put(job)
                .putShort((short) next.length).put(next).put(nonce).array();
    }

    /**
     * The length of the request at the start of {@code bytes} (position to limit) once its length field is there,
     * else -1; throws {@link Refused} for a length no request has.
     */
    public static int lengthOf(ByteBuffer bytes) {
        if (bytes.remaining() < LENGTH_FIELD) {
            return -1;
        }
        int length = bytes.order(ByteOrder.LITTLE_ENDIAN).getInt(bytes.position());
        if (length < 4 || length > MAX_LENGTH) {
            throw new Refused("not a relay request (length " + length + ")");
        }
        return LENGTH_FIELD + length;
    }

    /**
     * Reads and checks a whole request (length field included) against the job and the nonces this relay has seen;
     * throws {@link Refused} saying what is wrong.
     */
    public static RelayRequest verify(ByteBuffer bytes, String jobId, String secret, Set<String> seenNonces) {
        RelayRequest request;
        try {
            ByteBuffer in = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
            int length = in.getInt();
            if (in.getInt() != MAGIC) {
                throw new Refused("bad magic (not a Weft relay request)");
            }
            int version = Short.toUnsignedInt(in.getShort());
            if (version != VERSION) {
                throw new Refused("relay protocol version " + version + ", expected " + VERSION);
            }
            int kind = in.get();
            if (kind < 0 || kind >= Kind.values().length) {
                throw new Refused("unknown request kind " + kind);
            }
            int rank = in.getInt();
            int target = in.getInt();
            long session = in.getLong();
            String job = string(in);
            String next = string(in);
            byte[] nonce = new byte[NONCE_LENGTH];
            byte[] proof = new byte[PROOF_LENGTH];
            in.get(nonce).get(proof);
            if (in.position() != LENGTH_FIELD + length) {
                throw new Refused("request with trailing bytes");
            }
            request = new RelayRequest(Kind.values()[kind], rank, target, session, job, next, nonce, proof);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new Refused("truncated request");
        }
        byte[] expected = BootstrapProtocol.proof(secret, request.signedPart());
        if (!MessageDigest.isEqual(expected, request.proof)) {
            throw new Refused(request.jobId.equals(jobId) ? "wrong job secret" : "request for another job");
        }
        if (!request.jobId.equals(jobId)) {
            throw new Refused("request for another job");
        }
        if (!seenNonces.add(HexFormat.of().formatHex(request.nonce))) {
            throw new Refused("replayed request (nonce seen before)");
        }
        return request;
    }

    private static String string(ByteBuffer in) {
        int length = Short.toUnsignedInt(in.getShort());
        byte[] bytes = new byte[length];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RelayRequest r && r.kind == kind && r.rank == rank && r.target == target
                && r.session == session && r.jobId.equals(jobId) && r.nextRelay.equals(nextRelay)
                && Arrays.equals(r.nonce, nonce) && Arrays.equals(r.proof, proof);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(nonce);
    }

    /** A request that does not prove membership of the job, or makes no sense. */
    public static final class Refused extends RuntimeException {
        public Refused(String reason) {
            super(reason, null, false, false);
        }
    }
}
