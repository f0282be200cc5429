package org.weft.launcher.bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.MessageDigest;
import java.util.concurrent.CountDownLatch;
import org.weft.adi.bootstrap.BootstrapProtocol;
import org.weft.adi.bootstrap.BootstrapProtocol.Frame;
import org.weft.adi.bootstrap.KernelRandom;

/**
 * One accepted connection, served on its own (virtual) thread: challenge, proof, registration, then the rank's
 * requests until BYE or end of stream. Anything wrong before registration drops only this connection.
 */
final class RankConnection implements Runnable {
    private static final int HANDSHAKE_TIMEOUT_MILLIS = 10_000;

    private final BootstrapServer server;
    private final Socket socket;
    private final String remote;
    private final CountDownLatch closed = new CountDownLatch(1);
    private DataOutputStream out;
    private int rank = -1;
    private volatile boolean leftCleanly;

    RankConnection(BootstrapServer server, Socket socket) {
        this.server = server;
        this.socket = socket;
        this.remote = String.valueOf(socket.getRemoteSocketAddress());
    }

    @Override
    public void run() {
        try (socket) {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(HANDSHAKE_TIMEOUT_MILLIS);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            String refusal = authenticate(in);
            if (refusal != null) {
                server.report(new BootstrapEvent.Refused(remote, refusal));
                return;
            }
            socket.setSoTimeout(0);
            serve(in);
        } catch (IOException e) {
            if (rank >= 0 && !leftCleanly && !server.isClosed()) {
                server.report(new BootstrapEvent.Disconnected(rank, describe(e)));
            }
        } finally {
            closed.countDown();
            if (rank < 0) {
                server.forget(this); // a refused stranger leaves no trace
            }
        }
    }

    /** Runs the handshake; returns why the peer is refused, or {@code null} once it is registered. */
    private String authenticate(DataInputStream in) throws IOException {
        byte[] nonce = KernelRandom.bytes(BootstrapProtocol.NONCE_BYTES);
        send(BootstrapProtocol.CHALLENGE, BootstrapProtocol.challenge(nonce));
        Frame hello;
        try {
            hello = BootstrapProtocol.read(in, BootstrapProtocol.MAX_HANDSHAKE_FRAME);
        } catch (SocketTimeoutException e) {
            return "did not prove the job secret within " + HANDSHAKE_TIMEOUT_MILLIS / 1000 + " s";
        } catch (IOException e) {
            return "malformed handshake: " + describe(e);
        }
        byte[] body = hello.body();
        if (hello.type() != BootstrapProtocol.HELLO || body.length != 8 + BootstrapProtocol.PROOF_BYTES) {
            return "malformed handshake: not a HELLO frame";
        }
        byte[] proof = java.util.Arrays.copyOfRange(body, 8, body.length);
        if (!MessageDigest.isEqual(proof, BootstrapProtocol.proof(server.secret(), nonce))) {
            return "wrong job secret";
        }
        int claimedRank = BootstrapProtocol.getInt(body, 0);
        int claimedSize = BootstrapProtocol.getInt(body, 4);
        String refusal = server.refusal(claimedRank, claimedSize);
        if (refusal != null) {
            return refusal;
        }
        if (!server.register(claimedRank, this)) {
            return "rank " + claimedRank + " is already registered";
        }
        rank = claimedRank;
        send(BootstrapProtocol.WELCOME, new byte[0]);
        server.report(new BootstrapEvent.Registered(rank));
        server.endIfOver(this);
        return null;
    }

    /** Serves a registered rank until it leaves. */
    private void serve(DataInputStream in) throws IOException {
        while (true) {
            Frame frame = BootstrapProtocol.read(in, BootstrapProtocol.MAX_FRAME);
            switch (frame.type()) {
                case BootstrapProtocol.ALLGATHER, BootstrapProtocol.BARRIER ->
                        server.contribute(rank, frame.type(), frame.body());
                case BootstrapProtocol.REQUEST -> server.request(rank, frame.body(), this);
                case BootstrapProtocol.ABORT -> server.report(new BootstrapEvent.Aborted(rank,
                        BootstrapProtocol.codeOf(frame.body()), BootstrapProtocol.messageOf(frame.body())));
                case BootstrapProtocol.BYE -> {
                    leftCleanly = true;
                    server.report(new BootstrapEvent.Left(rank));
                    return;
                }
                default -> {
                    server.report(new BootstrapEvent.Violation(rank, "unknown frame type " + frame.type()));
                    return;
                }
            }
        }
    }

    /** Sends one frame to this peer; safe from any thread. */
    void send(byte type, byte[] body) throws IOException {
        synchronized (this) {
            BootstrapProtocol.write(out, type, body);
        }
    }

    /** Sends a frame, ignoring a peer that is gone (its own thread reports that). */
    void sendQuietly(byte type, byte[] body) {
        try {
            send(type, body);
        } catch (IOException e) {
            // the reading thread sees the broken connection and reports it
        }
    }

    int rank() {
        return rank;
    }

    boolean leftCleanly() {
        return leftCleanly;
    }

    CountDownLatch closedLatch() {
        return closed;
    }

    void closeQuietly() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private static String describe(IOException e) {
        return e instanceof EOFException ? "connection closed" : String.valueOf(e.getMessage());
    }
}
