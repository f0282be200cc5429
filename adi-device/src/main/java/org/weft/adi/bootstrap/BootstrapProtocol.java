package org.weft.adi.bootstrap;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The wire format between a rank ({@link SocketBootstrap}) and the launcher's bootstrap service, shared by both
 * ends so they cannot drift apart. All integers are big-endian ({@link DataOutputStream} order).
 *
 * <p>Every message is one frame:
 * <pre>
 *  0                   4       5
 *  +-------------------+-------+--------------------------------+
 *  | length (int32)    | type  | body (length - 1 bytes)        |
 *  +-------------------+-------+--------------------------------+
 *    length counts the type byte and the body; 1 &lt;= length &lt;= MAX_FRAME
 *    (MAX_HANDSHAKE_FRAME until the peer has proved the secret)
 * </pre>
 *
 * <p>Conversation ({@code S} = service, {@code C} = rank):
 * <pre>
 *  S-&gt;C CHALLENGE      | 'W' 'E' 'F' 'T' | version (1) | nonce (32) |
 *  C-&gt;S HELLO          | rank (int32) | size (int32) | proof = HMAC-SHA256(key = secret UTF-8, nonce) (32) |
 *  S-&gt;C WELCOME        (empty)          -- or the service closes the connection: wrong proof, rank or size
 *  C-&gt;S ALLGATHER      | card bytes |
 *  S-&gt;C GATHERED       | n (int32) | n x ( | len (int32) | card bytes | ) |   -- indexed by rank
 *  C-&gt;S BARRIER        (empty)
 *  S-&gt;C RELEASED       (empty)
 *  C-&gt;S ABORT          | code (int32) | message (UTF-8) |
 *  C-&gt;S BYE            (empty)          -- the rank leaves cleanly (after the finalize barrier)
 *  S-&gt;C JOB_END        | code (int32) | message (UTF-8) |   -- the job is over: the rank must stop
 *  C-&gt;S REQUEST        | id (int32) | op (int8) | body |      -- dynamic processes: {@link LauncherRequests}
 *  S-&gt;C RESPONSE       | id (int32) | status (int32) | body |
 * </pre>
 * A process of a spawned world says its job rank and its world's size in its HELLO; the service knows its world.
 * Collectives (ALLGATHER, BARRIER) are called in the same order by every rank, so at most one is in flight:
 * a rank sends its contribution and waits for the answer before it sends anything else but ABORT or BYE.
 * The secret itself never travels; a connection that fails the proof is closed before any other frame is read.
 */
public final class BootstrapProtocol {
    /** Protocol version carried in the challenge; bump on any incompatible change. */
    public static final byte VERSION = 1;
    public static final byte[] MAGIC = {'W', 'E', 'F', 'T'};
    public static final int NONCE_BYTES = 32;
    public static final int PROOF_BYTES = 32;
    /** Largest frame before authentication: a stranger cannot make the service allocate more. */
    public static final int MAX_HANDSHAKE_FRAME = 1 + 4 + 4 + PROOF_BYTES;
    /** Largest frame at all (a GATHERED frame holds every rank's card). */
    public static final int MAX_FRAME = 64 << 20;

    public static final byte CHALLENGE = 0x01;
    public static final byte HELLO = 0x02;
    public static final byte WELCOME = 0x03;
    public static final byte ALLGATHER = 0x10;
    public static final byte GATHERED = 0x11;
    public static final byte BARRIER = 0x12;
    public static final byte RELEASED = 0x13;
    public static final byte ABORT = 0x20;
    public static final byte BYE = 0x21;
    public static final byte JOB_END = 0x30;
    public static final byte REQUEST = 0x40;
    public static final byte RESPONSE = 0x41;

    private BootstrapProtocol() {
    }

    /** One decoded frame. */
    public record Frame(byte type, byte[] body) {
    }

    /** Writes one frame and flushes it. Callers serialise writers of one stream. */
    public static void write(DataOutputStream out, byte type, byte[] body) throws IOException {
        out.writeInt(1 + body.length);
        out.writeByte(type);
        out.write(body);
        out.flush();
    }

    /**
     * Reads one frame.
     *
     * @throws EOFException when the stream ends cleanly before a frame starts
     * @throws IOException on a frame longer than {@code maxLength} or cut short
     */
    public static Frame read(DataInputStream in, int maxLength) throws IOException {
        int length = in.readInt();
        if (length < 1 || length > maxLength) {
            throw new IOException("bad frame length " + length + " (limit " + maxLength + ")");
        }
        byte type = in.readByte();
        byte[] body = new byte[length - 1];
        in.readFully(body);
        return new Frame(type, body);
    }

    /** The body of a CHALLENGE frame with this nonce. */
    public static byte[] challenge(byte[] nonce) {
        byte[] body = new byte[MAGIC.length + 1 + NONCE_BYTES];
        System.arraycopy(MAGIC, 0, body, 0, MAGIC.length);
        body[MAGIC.length] = VERSION;
        System.arraycopy(nonce, 0, body, MAGIC.length + 1, NONCE_BYTES);
        return body;
    }

    /** The nonce of a CHALLENGE body, after checking magic and version. */
    public static byte[] nonceOf(byte[] challengeBody) throws IOException {
        if (challengeBody.length != MAGIC.length + 1 + NONCE_BYTES
                || !MessageDigest.isEqual(java.util.Arrays.copyOf(challengeBody, MAGIC.length), MAGIC)) {
            throw new IOException("not a Weft bootstrap service");
        }
        if (challengeBody[MAGIC.length] != VERSION) {
            throw new IOException("bootstrap protocol version " + challengeBody[MAGIC.length]
                    + ", this rank speaks " + VERSION);
        }
        return java.util.Arrays.copyOfRange(challengeBody, MAGIC.length + 1, challengeBody.length);
    }

    /**
     * HMAC-SHA256 of the nonce keyed by the job secret: proves the secret without sending it ({@link HmacSha256},
     * not the JDK's {@code Mac}, whose set-up costs each JVM's start more than the whole handshake).
     */
    public static byte[] proof(String secret, byte[] nonce) {
        return HmacSha256.mac(secret.getBytes(StandardCharsets.UTF_8), nonce);
    }

    /** A body made of an int32 code and a UTF-8 message (ABORT, JOB_END). */
    public static byte[] codeAndMessage(int code, String message) {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[4 + text.length];
        putInt(body, 0, code);
        System.arraycopy(text, 0, body, 4, text.length);
        return body;
    }

    /** The code of a {@link #codeAndMessage} body. */
    public static int codeOf(byte[] body) throws IOException {
        if (body.length < 4) {
            throw new IOException("frame too short for a code");
        }
        return getInt(body, 0);
    }

    /** The message of a {@link #codeAndMessage} body. */
    public static String messageOf(byte[] body) {
        return new String(body, 4, body.length - 4, StandardCharsets.UTF_8);
    }

    public static void putInt(byte[] bytes, int offset, int value) {
        bytes[offset] = (byte) (value >>> 24);
        bytes[offset + 1] = (byte) (value >>> 16);
        bytes[offset + 2] = (byte) (value >>> 8);
        bytes[offset + 3] = (byte) value;
    }

    public static int getInt(byte[] bytes, int offset) {
        return (bytes[offset] & 0xff) << 24 | (bytes[offset + 1] & 0xff) << 16
                | (bytes[offset + 2] & 0xff) << 8 | bytes[offset + 3] & 0xff;
    }

    /** Encodes a GATHERED body: the count, then each card with its length, in rank order. */
    public static byte[] gathered(byte[][] cards) {
        int total = 4;
        for (byte[] card : cards) {
            total += 4 + card.length;
        }
        byte[] body = new byte[total];
        putInt(body, 0, cards.length);
        int at = 4;
        for (byte[] card : cards) {
            putInt(body, at, card.length);
            System.arraycopy(card, 0, body, at + 4, card.length);
            at += 4 + card.length;
        }
        return body;
    }

    /** Decodes a GATHERED body, checking every length against the body. */
    public static byte[][] cardsOf(byte[] body) throws IOException {
        if (body.length < 4) {
            throw new IOException("GATHERED frame too short");
        }
        int n = getInt(body, 0);
        if (n < 0 || n > (body.length - 4) / 4) {
            throw new IOException("GATHERED frame claims " + n + " cards");
        }
        byte[][] cards = new byte[n][];
        int at = 4;
        for (int i = 0; i < n; i++) {
            if (at + 4 > body.length) {
                throw new IOException("GATHERED frame cut short");
            }
            int len = getInt(body, at);
            if (len < 0 || len > body.length - at - 4) {
                throw new IOException("GATHERED frame has a bad card length " + len);
            }
            cards[i] = java.util.Arrays.copyOfRange(body, at + 4, at + 4 + len);
            at += 4 + len;
        }
        return cards;
    }

    /** A HELLO body. */
    public static byte[] hello(int rank, int size, byte[] proof) {
        byte[] body = new byte[8 + PROOF_BYTES];
        putInt(body, 0, rank);
        putInt(body, 4, size);
        System.arraycopy(proof, 0, body, 8, PROOF_BYTES);
        return body;
    }
}
