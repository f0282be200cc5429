package org.weft.wan.probe;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;

/** The measuring ends of the probes; each returns its one line of result. */
final class ProbeClient {
    private static final int DATAGRAM_BYTES = 100;
    private static final long DATAGRAM_GAP_NANOS = 200_000;

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

    /** {@code streams} connections sending for {@code seconds}: their bytes over the longest one's time. */
    static String bulk(String host, int port, int seconds, int streams) throws Exception {
        List<Future<long[]>> results = new ArrayList<>();
        try (ExecutorService senders = Executors.newFixedThreadPool(streams)) {
            for (int i = 0; i < streams; i++) {
                results.add(senders.submit(() -> send(host, port, seconds)));
            }
        }
        long bytes = 0;
        long nanos = 0;
        for (Future<long[]> result : results) {
            bytes += result.get()[0];
            nanos = Math.max(nanos, result.get()[1]);
        }
        double elapsed = nanos / 1e9;
        return String.format(Locale.ROOT, "bulk_mbit=%.2f bytes=%d seconds=%.3f streams=%d",
                bytes * 8 / elapsed / 1e6, bytes, elapsed, streams);
    }

    /** One stream: {bytes, nanoseconds} as the receiver counted them (first byte to end). */
    private static long[] send(String host, int port, int seconds) throws IOException {
        try (Socket socket = Probe.open(host, port, Probe.BULK)) {
            DataOutputStream out = Probe.out(socket);
            byte[] chunk = new byte[1 << 16];
            long end = System.nanoTime() + seconds * 1_000_000_000L;
            while (System.nanoTime() < end) {
                out.write(chunk);
            }
            socket.shutdownOutput();
            DataInputStream in = Probe.in(socket);
            return new long[] {in.readLong(), in.readLong()};
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
