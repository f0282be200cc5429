package org.weft.mm.module.tcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A man in the middle for tests: a loopback port that forwards one connection to {@code targetPort}, keeps every
 * byte it forwards (both directions) and can alter one byte of the dialler's stream on the way.
 */
final class TappedProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int targetPort;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private final List<Socket> sockets = new ArrayList<>();
    /** Bytes forwarded from the dialler so far. */
    private final AtomicLong forwarded = new AtomicLong();
    /** The offset in the dialler's stream of the byte to flip, or -1. */
    private final AtomicLong flipAt = new AtomicLong(-1);

    TappedProxy(int targetPort) throws IOException {
        this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        this.targetPort = targetPort;
        Thread.ofPlatform().daemon().name("proxy-accept").start(this::acceptOne);
    }

    int port() {
        return server.getLocalPort();
    }

    /** Every byte forwarded so far, both directions interleaved as they came. */
    byte[] captured() {
        synchronized (captured) {
            return captured.toByteArray();
        }
    }

    /** Flips the bits of the byte {@code ahead} bytes after what the dialler has sent so far. */
    void alterAhead(long ahead) {
        flipAt.set(forwarded.get() + ahead);
    }

    private void acceptOne() {
        try {
            Socket in = server.accept();
            Socket out = new Socket(InetAddress.getLoopbackAddress(), targetPort);
            synchronized (sockets) {
                sockets.add(in);
                sockets.add(out);
            }
            in.setTcpNoDelay(true);
            out.setTcpNoDelay(true);
            Thread.ofPlatform().daemon().name("proxy-up").start(() -> pump(in, out, true));
            Thread.ofPlatform().daemon().name("proxy-down").start(() -> pump(out, in, false));
        } catch (IOException e) {
            // closed by the test
        }
    }

    private void pump(Socket from, Socket to, boolean fromDialler) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (fromDialler) {
                    long start = forwarded.getAndAdd(n);
                    long flip = flipAt.get();
                    if (flip >= start && flip < start + n) {
                        buffer[(int) (flip - start)] ^= (byte) 0xFF;
                    }
                }
                synchronized (captured) {
                    captured.write(buffer, 0, n);
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            // one side closed: the connection ends
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    @Override
    public void close() {
        closeQuietly(server);
        synchronized (sockets) {
            sockets.forEach(TappedProxy::closeQuietly);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing is all we wanted
        }
    }
}
