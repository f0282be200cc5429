package org.weft.wan.probe;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/** The measuring ends of the probes; each returns its one line of result. */
final class ProbeClient {
    private static final int DATAGRAM_BYTES = 100;
    private static final long DATAGRAM_GAP_NANOS = 100_000;

    private ProbeClient() {
    }

    static String ping(String host, int port, int count) throws IOException {
        double[] millis = new double[count];
        try (Socket socket = Probe.open(host, port, Probe.PING)) {
            DataInputStream in = Probe.in(socket);
            DataOutputStream out = Probe.out(socket);
            byte[] message = new byte[Probe.PING_BYTES];
            for (int i = 0; i < count; i++) {
                long start = System.nanoTime();
                out.write(message);
                out.flush();
                in.readFully(message);
                millis[i] = (System.nanoTime() - start) / 1e6;
            }
        }
        Arrays.sort(millis);
        return String.format(Locale.ROOT, "rtt_ms min=%.3f median=%.3f max=%.3f", millis[0], millis[count / 2],
                millis[count - 1]);
    }

    static String bulk(String host, int port, int seconds) throws IOException {
        try (Socket socket = Probe.open(host, port, Probe.BULK)) {
            DataOutputStream out = Probe.out(socket);
            byte[] chunk = new byte[1 << 16];
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                out.write(chunk);
            }
            socket.shutdownOutput();
            DataInputStream in = Probe.in(socket);
            long bytes = in.readLong();
            double elapsed = in.readLong() / 1e9;
            return String.format(Locale.ROOT, "bulk_mbit=%.2f bytes=%d seconds=%.3f", bytes * 8 / elapsed / 1e6,
                    bytes, elapsed);
        }
    }

    static String udp(String host, int port, int count) throws IOException, InterruptedException {
        try (Socket control = Probe.open(host, port, Probe.UDP); DatagramSocket udp = new DatagramSocket()) {
            DataInputStream in = Probe.in(control);
            in.read(); // the server counts from here
            DatagramPacket packet = new DatagramPacket(new byte[DATAGRAM_BYTES], DATAGRAM_BYTES,
                    new InetSocketAddress(host, port));
            long next = System.nanoTime();
            for (int i = 0; i < count; i++) {
                udp.send(packet);
                next += DATAGRAM_GAP_NANOS;
                LockSupport.parkNanos(next - System.nanoTime());
            }
            Thread.sleep(1000); // the last ones are still on the link
            Probe.out(control).write(0);
            return "udp sent=" + count + " received=" + in.readLong();
        }
    }
}
