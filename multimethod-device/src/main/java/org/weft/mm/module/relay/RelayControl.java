package org.weft.mm.module.relay;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.weft.mm.module.tcp.TcpModule;
import org.weft.mm.spi.ModuleContext;

/**
 * A rank's registration with the relay of its site: one connection this rank dials (it need not accept any), on
 * which the relay asks for a reverse connection whenever a peer's path to this rank arrives. A daemon thread reads
 * the requests (rare: one per path) and answers each with a connection of its own that it hands to the relay
 * method's tcp machinery, where the peer's HELLO must prove itself as on any accepted connection.
 */
final class RelayControl implements AutoCloseable {
    private final RelayAddress relay;
    private final InetSocketAddress where;
    private final Socket socket;
    private final ModuleContext context;
    private final TcpModule connections;
    private final Consumer<String> log;
    private final int timeoutMillis;
    private volatile boolean closing;

    private RelayControl(RelayAddress relay, InetSocketAddress where, Socket socket, ModuleContext context,
                         TcpModule connections, Consumer<String> log, int timeoutMillis) {
        this.relay = relay;
        this.where = where;
        this.socket = socket;
        this.context = context;
        this.connections = connections;
        this.log = log;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Registers this rank with {@code relay} (its addresses in dial order, each given {@code timeoutMillis}) and
     * waits, as long again, until the relay confirms; then serves its requests for reverse connections.
     */
    static RelayControl register(RelayAddress relay, ModuleContext context, TcpModule connections,
                                 Consumer<String> log, int timeoutMillis) throws IOException {
        List<String> failures = new ArrayList<>();
        for (String host : relay.address().dialOrder()) {
            InetSocketAddress where = new InetSocketAddress(host, relay.address().port());
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(where, timeoutMillis);
                socket.setSoTimeout(timeoutMillis);
                socket.getOutputStream().write(RelayRequest.signed(RelayRequest.Kind.REGISTER, context.rank(), -1, 0,
                        context.jobId(), "", context.secret()).encode());
                DataInputStream in = new DataInputStream(socket.getInputStream());
                if (Integer.reverseBytes(in.readInt()) != 0) {
                    throw new IOException("the relay did not confirm the registration");
                }
                socket.setSoTimeout(0);
                RelayControl control = new RelayControl(relay, where, socket, context, connections, log,
                        timeoutMillis);
                Thread.ofPlatform().daemon().name("weft-relay-control-" + context.rank()).start(control::serve);
                return control;
            } catch (IOException e) {
                socket.close();
                failures.add(host + ": " + e);
            }
        }
        throw new IOException("cannot register with " + relay.describe() + ": " + String.join("; ", failures));
    }

    /** Reads the relay's requests until the connection ends. */
    private void serve() {
        try {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            while (true) {
                int length = Integer.reverseBytes(in.readInt());
                if (length != ControlMessages.DIAL_LENGTH) {
                    throw new IOException("unexpected control message of " + length + " bytes");
                }
                long session = Long.reverseBytes(in.readLong());
                int fromRank = Integer.reverseBytes(in.readInt());
                dialBack(session, fromRank);
            }
        } catch (EOFException e) {
            lost("it closed the connection");
        } catch (IOException e) {
            lost(e.toString());
        }
    }

    /** The reverse connection for the path from {@code fromRank}: to the relay, then to the tcp machinery. */
    private void dialBack(long session, int fromRank) {
        try {
            SocketChannel back = SocketChannel.open();
            try {
                back.socket().connect(where, timeoutMillis);
                ByteBuffer request = ByteBuffer.wrap(RelayRequest.signed(RelayRequest.Kind.ACCEPT, context.rank(),
                        fromRank, session, context.jobId(), "", context.secret()).encode());
                while (request.hasRemaining()) {
                    back.write(request);
                }
                connections.admit(back, "through " + relay.describe());
            } catch (IOException | RuntimeException e) {
                back.close();
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            if (!closing) {
                log.accept("cannot answer " + relay.describe() + " for the path from rank " + fromRank + ": " + e);
            }
        }
    }

    private void lost(String why) {
        if (!closing) {
            log.accept("lost " + relay.describe() + " (" + why + "): paths through it fail");
        }
    }

    @Override
    public void close() {
        closing = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }
}
