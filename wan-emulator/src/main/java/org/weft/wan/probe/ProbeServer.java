package org.weft.wan.probe;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

/** The far end of the probes: one thread per TCP connection, one counting UDP datagrams. */
final class ProbeServer {
    private static final AtomicLong DATAGRAMS = new AtomicLong();
    /** As much as a namespace allows (net.core.rmem_max, 4 MiB): thousands of small datagrams. */
    private static final int UDP_BUFFER = 4 << 20;

    private ProbeServer() {
    }

    static void serve(int port) throws IOException {
        DatagramSocket udp = new DatagramSocket(port);
        udp.setReceiveBufferSize(UDP_BUFFER); // a burst waits there while a busy machine gets round to this JVM
        Thread.ofPlatform().daemon().start(() -> countDatagrams(udp));
        try (ServerSocket server = new ServerSocket(port)) {
            System.out.println("serving on port " + port);
            System.out.flush();
            while (true) {
                Socket socket = server.accept();
                Thread.ofPlatform().daemon().start(() -> answer(socket));
            }
        }
    }

    private static void countDatagrams(DatagramSocket udp) {
        DatagramPacket packet = new DatagramPacket(new byte[2048], 2048);
        try {
            while (true) {
                udp.receive(packet);
                DATAGRAMS.incrementAndGet();
            }
        } catch (IOException e) {
            System.err.println("udp: " + e);
        }
    }

    private static void answer(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            DataInputStream in = Probe.in(socket);
            DataOutputStream out = Probe.out(socket);
            switch (in.read()) {
                case Probe.PING -> echo(in, out);
                case Probe.BULK -> sink(in, out);
                case Probe.UDP -> countBetween(in, out);
                default -> { }
            }
        } catch (IOException e) {
            System.err.println("probe connection: " + e);
        }
    }

    private static void echo(DataInputStream in, DataOutputStream out) throws IOException {
        byte[] message = new byte[Probe.PING_BYTES];
        try {
            while (true) {
                in.readFully(message);
                out.write(message);
                out.flush();
            }
        } catch (EOFException done) {
            // the client has its round trips
        }
    }

    /**
     * Reads to the end, then says how many bytes came after the first read and over how long (that read to the
     * end). The first read's bytes came before the clock started: counting them overstated the rate by up to a
     * buffer (64 KiB, or more when this thread was late), the +1-frame bias the path probe had (52d77f9).
     */
    static void sink(DataInputStream in, DataOutputStream out) throws IOException {
        byte[] buffer = new byte[1 << 16];
        long bytes = 0;
        long first = 0;
        boolean started = false;
        for (int n; (n = in.read(buffer)) >= 0; ) {
            if (!started) {
                first = System.nanoTime();
                started = true;
            } else {
                bytes += n;
            }
        }
        out.writeLong(bytes);
        out.writeLong(System.nanoTime() - first);
        out.flush();
    }

    /** The datagrams counted between the client's two marks (a byte each). */
    private static void countBetween(DataInputStream in, DataOutputStream out) throws IOException {
        long start = DATAGRAMS.get();
        out.write(0);
        out.flush();
        in.read();
        out.writeLong(DATAGRAMS.get() - start);
        out.flush();
    }
}
