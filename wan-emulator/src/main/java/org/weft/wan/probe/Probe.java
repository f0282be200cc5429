package org.weft.wan.probe;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * {@code Probe serve PORT} answers the others on TCP and UDP {@code PORT}; the clients print one line each:
 * <pre>
 *   Probe ping HOST PORT COUNT        rtt_ms min=.. median=.. max=..     (TCP ping-pong of 32 bytes)
 *   Probe bulk HOST PORT SECONDS [STREAMS]  bulk_mbit=.. bytes=.. seconds=.. (as the receivers measured it)
 *   Probe udp HOST PORT COUNT         udp sent=.. received=..            (100-byte datagrams, 5 000 a second)
 *   Probe connect HOST PORT MILLIS    connected | refused: REASON        (exit status 0 | 1)
 * </pre>
 */
public final class Probe {
    static final int PING = 'P';
    static final int BULK = 'B';
    static final int UDP = 'U';
    static final int PING_BYTES = 32;

    private Probe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("serve")) {
            ProbeServer.serve(Integer.parseInt(args[1]));
            return;
        }
        if (args.length != 4 && !(args.length == 5 && args[0].equals("bulk"))) {
            usage();
        }
        String host = args[1];
        int port = Integer.parseInt(args[2]);
        int amount = Integer.parseInt(args[3]);
        switch (args[0]) {
            case "ping" -> System.out.println(ProbeClient.ping(host, port, amount));
            case "bulk" -> System.out.println(ProbeClient.bulk(host, port, amount,
                    args.length == 5 ? Integer.parseInt(args[4]) : 1));
            case "udp" -> System.out.println(ProbeClient.udp(host, port, amount));
            case "connect" -> System.exit(connect(host, port, amount) ? 0 : 1);
            default -> usage();
        }
    }

    private static boolean connect(String host, int port, int millis) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), millis);
            System.out.println("connected");
            return true;
        } catch (IOException e) {
            System.out.println("refused: " + e.getMessage());
            return false;
        }
    }

    /** Opens a probe connection of {@code kind}. */
    static Socket open(String host, int port, int kind) throws IOException {
        Socket socket = new Socket(host, port);
        socket.setTcpNoDelay(true);
        new DataOutputStream(socket.getOutputStream()).write(kind);
        return socket;
    }

    static DataInputStream in(Socket socket) throws IOException {
        return new DataInputStream(socket.getInputStream());
    }

    static DataOutputStream out(Socket socket) throws IOException {
        return new DataOutputStream(socket.getOutputStream());
    }

    private static void usage() {
        System.err.println("usage: Probe serve PORT | ping HOST PORT COUNT | bulk HOST PORT SECONDS [STREAMS]"
                + " | udp HOST PORT COUNT | connect HOST PORT MILLIS");
        System.exit(2);
    }
}
