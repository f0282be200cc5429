package org.weft.core.dyn;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.adi.net.HostAddresses;

/**
 * The two roots of a connection through a port, over the port's socket: both prove the port's token, then swap
 * what their groups need (who they are, how to reach them, the context ids they agree on) until the
 * intercommunicator is built. Blocking; run on a thread of its own while the process progresses.
 *
 * <pre>
 *  A = the accepting root (the port's listener), C = the connecting root
 *  A-&gt;C | "WEFTPORT" | version (1) | nonceA (32) |
 *  C-&gt;A | nonceC (32) | HMAC-SHA256(token, "weft port connect" | nonceA | nonceC) (32) |
 *  A-&gt;C | 0 | HMAC-SHA256(token, "weft port accept" | nonceA | nonceC) (32) |     -- or | 1 | reason (UTF) |, closed
 *  then swaps: the connector writes | length (int32) | bytes | first, the acceptor answers likewise
 * </pre>
 * Each side proves the token to the other without sending it, over fresh nonces (a recorded session is worth
 * nothing again). The <em>link key</em>, {@code HMAC-SHA256(token, "weft port link" | nonceA | nonceC)} in hex,
 * is what the two groups' processes prove to each other from then on (tcp HELLOs, TLS certificates): the jobs'
 * own secrets never leave their jobs.
 */
final class PortSession implements AutoCloseable {
    private static final byte[] MAGIC = "WEFTPORT".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    private static final int NONCE_BYTES = 32;
    private static final int MAX_SWAP = 64 << 20;
    /** How long a connection may take to prove the token (a stranger that says nothing is dropped then). */
    private static final int HANDSHAKE_MILLIS = 10_000;
    /** How long one side waits for the other's next swap (its group's collectives come between). */
    private static final int SWAP_MILLIS = 300_000;
    private static final int CONNECT_MILLIS = 10_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final boolean acceptor;
    private final String linkKey;

    private PortSession(Socket socket, DataInputStream in, DataOutputStream out, boolean acceptor, String linkKey)
            throws IOException {
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.acceptor = acceptor;
        this.linkKey = linkKey;
        socket.setSoTimeout(SWAP_MILLIS);
    }

    /** A connection that did not prove the port's token. */
    static final class Refused extends Exception {
        Refused(String reason) {
            super(reason, null, false, false);
        }
    }

    /** The acceptor's side of the handshake on an accepted {@code socket}. */
    static PortSession asAcceptor(Socket socket, byte[] token) throws IOException, Refused {
        socket.setSoTimeout(HANDSHAKE_MILLIS);
        socket.setTcpNoDelay(true);
        DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        byte[] nonceA = nonce();
        out.write(MAGIC);
        out.writeByte(VERSION);
        out.write(nonceA);
        out.flush();
        byte[] nonceC = new byte[NONCE_BYTES];
        byte[] proof = new byte[32];
        try {
            in.readFully(nonceC);
            in.readFully(proof);
        } catch (EOFException e) {
            throw new Refused("it closed the connection before proving the port's token");
        }
        if (!MessageDigest.isEqual(proof, hmac(token, "weft port connect", nonceA, nonceC))) {
            out.writeByte(1);
            out.writeUTF("wrong port token: the name was not this port's (altered, or of a port closed and opened "
                    + "again)");
            out.flush();
            throw new Refused("wrong port token");
        }
        out.writeByte(0);
        out.write(hmac(token, "weft port accept", nonceA, nonceC));
        out.flush();
        return new PortSession(socket, in, out, true, link(token, nonceA, nonceC));
    }

    /** Connects to the port {@code name} and proves its token; {@code ERR_PORT} when it cannot or is refused. */
    static PortSession connect(PortName name) {
        Socket socket = dial(name);
        try {
            socket.setSoTimeout(HANDSHAKE_MILLIS);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC) || in.readUnsignedByte() != VERSION) {
                throw new DeviceException(ErrorClass.ERR_PORT, "not a Weft port at " + socket.getRemoteSocketAddress());
            }
            byte[] nonceA = new byte[NONCE_BYTES];
            in.readFully(nonceA);
            byte[] nonceC = nonce();
            byte[] token = name.token();
            out.write(nonceC);
            out.write(hmac(token, "weft port connect", nonceA, nonceC));
            out.flush();
            if (in.readUnsignedByte() != 0) {
                throw new DeviceException(ErrorClass.ERR_PORT, "the port at " + socket.getRemoteSocketAddress()
                        + " refused this connection: " + in.readUTF());
            }
            byte[] proof = new byte[32];
            in.readFully(proof);
            if (!MessageDigest.isEqual(proof, hmac(token, "weft port accept", nonceA, nonceC))) {
                throw new DeviceException(ErrorClass.ERR_PORT, "the process at " + socket.getRemoteSocketAddress()
                        + " does not hold the port's token (not the port's owner)");
            }
            return new PortSession(socket, in, out, false, link(token, nonceA, nonceC));
        } catch (IOException | DeviceException e) {
            closeQuietly(socket);
            if (e instanceof DeviceException device) {
                throw device;
            }
            throw new DeviceException(ErrorClass.ERR_PORT, "the port at " + socket.getRemoteSocketAddress()
                    + " failed during its handshake: " + e.getMessage(), e);
        }
    }

    /** The first of the port's addresses that answers, in dial order (this host's own subnets first). */
    private static Socket dial(PortName name) {
        List<String> candidates = HostAddresses.inDialOrder(name.addresses());
        StringBuilder failures = new StringBuilder();
        for (String address : candidates) {
            Socket socket = new Socket();
            try {
                int colon = address.lastIndexOf(':');
                socket.setTcpNoDelay(true);
                socket.connect(new InetSocketAddress(HostAddresses.hostOf(address),
                        Integer.parseInt(address.substring(colon + 1))), CONNECT_MILLIS);
                return socket;
            } catch (IOException | RuntimeException e) {
                closeQuietly(socket);
                failures.append(failures.isEmpty() ? "" : "; ").append(address).append(": ").append(e.getMessage());
            }
        }
        throw new DeviceException(ErrorClass.ERR_PORT, "cannot reach port " + name.format() + " (" + failures
                + "): closed, or its job is gone");
    }

    /** The key the two groups' processes prove to each other. */
    String linkKey() {
        return linkKey;
    }

    /** Gives the other root {@code mine} and returns what it gave (the connector writes first). */
    byte[] swap(byte[] mine) throws IOException {
        if (acceptor) {
            byte[] theirs = read();
            write(mine);
            return theirs;
        }
        write(mine);
        return read();
    }

    private void write(byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
        out.flush();
    }

    private byte[] read() throws IOException {
        int length;
        try {
            length = in.readInt();
        } catch (EOFException e) {
            throw new EOFException("the other job's root closed the port's connection (its job ended?)");
        }
        if (length < 0 || length > MAX_SWAP) {
            throw new IOException("a swap of " + length + " bytes on a port's connection");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private static byte[] nonce() {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        return nonce;
    }

    private static String link(byte[] token, byte[] nonceA, byte[] nonceC) {
        return HexFormat.of().formatHex(hmac(token, "weft port link", nonceA, nonceC));
    }

    private static byte[] hmac(byte[] key, String domain, byte[] nonceA, byte[] nonceC) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(domain.getBytes(StandardCharsets.US_ASCII));
            mac.update(nonceA);
            return mac.doFinal(nonceC);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
