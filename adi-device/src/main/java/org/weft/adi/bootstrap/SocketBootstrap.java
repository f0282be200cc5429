package org.weft.adi.bootstrap;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.BootstrapProtocol.Frame;
import org.weft.adi.net.HostAddresses;

/**
 * The bootstrap client of a rank started by {@code weftrun}: one TCP connection to the launcher's bootstrap
 * service (wire format in {@link BootstrapProtocol}).
 *
 * <p>{@link #connect} proves the job secret and registers the rank. A daemon <em>watcher</em> thread then owns
 * the reading side: it hands collective answers to the caller and, when the launcher says the job is over
 * (another rank failed or aborted) or the connection is lost without this rank having closed it, calls the
 * {@code onJobEnd} callback once. For a real process that callback is {@link #haltOnJobEnd}: a rank whose job is
 * over, or whose launcher vanished, must not live on. It halts without a word when the launcher ended the job (the
 * launcher has said why, once for the job), and says why when the launcher is gone.
 *
 * <p>Threading: collectives ({@link #allGather}, {@link #barrier}) are called by one thread at a time, in the
 * same order on every rank; {@link #abort} and {@link #close} may be called from any thread.
 */
public final class SocketBootstrap implements Bootstrap {
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final int HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    /** The least time one of several bootstrap addresses is given to answer. */
    private static final int MIN_ATTEMPT_MILLIS = 2_000;
    /** How long {@link #abort} waits for the launcher to end the job before ending it here. */
    private static final long ABORT_CONFIRM_MILLIS = 10_000;
    /** How long {@link #close} waits for the service to close its side after BYE. */
    private static final long CLOSE_LINGER_MILLIS = 2_000;
    /** Put in the reply queue to wake a waiting collective when the job ends. */
    private static final Frame JOB_OVER = new Frame((byte) 0, new byte[0]);

    private final int rank;
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final Consumer<String> onJobEnd;
    private final BlockingQueue<Frame> replies = new LinkedBlockingQueue<>();
    /** Requests waiting for their RESPONSE, by id; failed all at once when the job ends. */
    private final Map<Integer, CompletableFuture<byte[]>> pending =
            new ConcurrentHashMap<>();
    private final AtomicInteger nextRequest = new AtomicInteger();
    private final AtomicBoolean ended = new AtomicBoolean();
    private final CountDownLatch endedLatch = new CountDownLatch(1);
    private volatile boolean closing;
    private volatile String endReason;
    private Thread watcher;

    private SocketBootstrap(int rank, Socket socket, DataInputStream in, DataOutputStream out,
                            Consumer<String> onJobEnd) {
        this.rank = rank;
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.onJobEnd = onJobEnd;
    }

    /** Connects with the default for real processes: on job end print one line and halt. */
    public static SocketBootstrap connect(WorldConfig config) throws IOException {
        return connect(config, haltOnJobEnd(config.rank()));
    }

    /**
     * Connects to {@code config.bootstrapAddress()}, proves {@code config.secret()} and registers
     * {@code config.rank()}.
     *
     * @param onJobEnd called once, on the watcher thread, with a one-line reason when the job ends under this
     *                 rank (launcher's order or lost connection); not called after {@link #close}
     * @throws IOException when the service cannot be reached or refuses this rank
     */
    public static SocketBootstrap connect(WorldConfig config, Consumer<String> onJobEnd) throws IOException {
        if (config.bootstrapAddress() == null) {
            throw new IllegalArgumentException("a singleton world has no bootstrap service");
        }
        Socket socket = connectToAny(config.bootstrapAddress());
        try {
            socket.setSoTimeout(HANDSHAKE_TIMEOUT_MILLIS);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            handshake(config, in, out);
            socket.setSoTimeout(0);
            SocketBootstrap client = new SocketBootstrap(config.rank(), socket, in, out, onJobEnd);
            client.startWatcher();
            return client;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * The first of the comma-separated {@code host:port} addresses that accepts a connection, tried in
     * {@link HostAddresses#inDialOrder} (a launcher on another host lists each of its addresses); the time allowed
     * is shared between them.
     */
    private static Socket connectToAny(String addresses) throws IOException {
        List<String> candidates = HostAddresses.inDialOrder(List.of(addresses.split(",")));
        int timeout = Math.max(MIN_ATTEMPT_MILLIS, CONNECT_TIMEOUT_MILLIS / candidates.size());
        IOException failure = null;
        for (String candidate : candidates) {
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.connect(parseAddress(candidate), timeout);
                return socket;
            } catch (IOException e) {
                socket.close();
                IOException attempt = new IOException("cannot reach the bootstrap service at " + candidate + ": "
                        + e.getMessage(), e);
                if (failure == null) {
                    failure = attempt;
                } else {
                    failure.addSuppressed(attempt);
                }
            }
        }
        throw failure;
    }

    private static void handshake(WorldConfig config, DataInputStream in, DataOutputStream out)
            throws IOException {
        Frame challenge = BootstrapProtocol.read(in, BootstrapProtocol.MAX_HANDSHAKE_FRAME);
        if (challenge.type() != BootstrapProtocol.CHALLENGE) {
            throw new IOException("not a Weft bootstrap service at " + config.bootstrapAddress());
        }
        byte[] nonce = BootstrapProtocol.nonceOf(challenge.body());
        byte[] proof = BootstrapProtocol.proof(config.secret(), nonce);
        BootstrapProtocol.write(out, BootstrapProtocol.HELLO,
                BootstrapProtocol.hello(config.rank(), config.size(), proof));
        Frame welcome;
        try {
            welcome = BootstrapProtocol.read(in, BootstrapProtocol.MAX_HANDSHAKE_FRAME);
        } catch (EOFException e) {
            throw new IOException("the bootstrap service at " + config.bootstrapAddress() + " refused rank "
                    + config.rank() + " (wrong job secret, rank or size)", e);
        }
        if (welcome.type() != BootstrapProtocol.WELCOME) {
            throw new IOException("unexpected frame type " + welcome.type() + " in the bootstrap handshake");
        }
    }

    /** Parses {@code host:port}, also {@code [v6-address]:port}. */
    static InetSocketAddress parseAddress(String hostPort) {
        String host;
        try {
            host = HostAddresses.hostOf(hostPort);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bootstrap " + e.getMessage());
        }
        return new InetSocketAddress(host, Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1)));
    }

    /**
     * The default {@code onJobEnd} of a real rank process: halt with status 1, after one line on stderr unless the
     * launcher itself ended the job.
     */
    public static Consumer<String> haltOnJobEnd(int rank) {
        return new HaltOnJobEnd(rank);
    }

    /** {@link #haltOnJobEnd}: a class of its own, so that the watcher can halt it quietly. */
    private record HaltOnJobEnd(int rank) implements Consumer<String> {
        @Override
        public void accept(String reason) {
            System.err.println("weft: rank " + rank + ": " + reason + "; stopping");
            System.err.flush();
            haltQuietly();
        }

        void haltQuietly() {
            Runtime.getRuntime().halt(1);
        }
    }

    private void startWatcher() {
        watcher = new Thread(this::watch, "weft-bootstrap-watcher-rank-" + rank);
        watcher.setDaemon(true);
        watcher.start();
    }

    /** The watcher's loop: the only reader of the socket once registered. */
    private void watch() {
        try {
            while (true) {
                Frame frame = BootstrapProtocol.read(in, BootstrapProtocol.MAX_FRAME);
                switch (frame.type()) {
                    case BootstrapProtocol.GATHERED, BootstrapProtocol.RELEASED -> replies.add(frame);
                    case BootstrapProtocol.RESPONSE -> answer(frame.body());
                    case BootstrapProtocol.JOB_END -> {
                        endJob("the launcher ended the job: " + BootstrapProtocol.messageOf(frame.body()), true);
                        return;
                    }
                    default -> {
                        endJob("protocol error: unexpected frame type " + frame.type() + " from the launcher");
                        return;
                    }
                }
            }
        } catch (IOException e) {
            if (!closing) {
                endJob("lost the connection to the launcher (" + e.getMessage() + ")");
            }
        }
    }

    /**
     * Ends the job under this rank, once: runs the callback first (it halts a real process, so a caller waiting
     * in a collective never wakes to print a stack trace over the launcher's message), then fails the waiters.
     */
    private void endJob(String reason) {
        endJob(reason, false);
    }

    /** {@link #endJob(String)}; {@code announced}: the launcher ended it, and has told the user why. */
    private void endJob(String reason, boolean announced) {
        if (ended.compareAndSet(false, true)) {
            endReason = reason;
            try {
                if (announced && onJobEnd instanceof HaltOnJobEnd halt) {
                    halt.haltQuietly();
                }
                onJobEnd.accept(reason);
            } finally {
                replies.add(JOB_OVER);
                pending.values().forEach(f -> f.completeExceptionally(new IOException("the job has ended: " + reason)));
                endedLatch.countDown();
            }
        }
    }

    @Override
    public byte[][] allGather(byte[] card) throws IOException {
        send(BootstrapProtocol.ALLGATHER, card);
        return BootstrapProtocol.cardsOf(awaitReply(BootstrapProtocol.GATHERED).body());
    }

    @Override
    public CompletableFuture<byte[]> request(byte op, byte[] body) {
        int id = nextRequest.incrementAndGet();
        CompletableFuture<byte[]> answer = new CompletableFuture<>();
        pending.put(id, answer);
        answer.whenComplete((value, failure) -> pending.remove(id));
        try {
            send(BootstrapProtocol.REQUEST, LauncherRequests.framed(id, op, true, body));
            if (ended.get()) {
                throw new IOException("the job has ended: " + endReason);
            }
        } catch (IOException e) {
            answer.completeExceptionally(e);
        }
        return answer;
    }

    /** A RESPONSE: completes its request with the body, or with the error class the launcher answered. */
    private void answer(byte[] body) throws IOException {
        if (body.length < 8) {
            throw new IOException("RESPONSE frame too short");
        }
        CompletableFuture<byte[]> request = pending.get(BootstrapProtocol.getInt(body, 0));
        if (request == null) {
            return; // its caller gave up (interrupted)
        }
        int status = BootstrapProtocol.getInt(body, 4);
        byte[] rest = Arrays.copyOfRange(body, 8, body.length);
        if (status == 0) {
            request.complete(rest);
        } else {
            request.completeExceptionally(new RefusedRequestException(status,
                    new String(rest, StandardCharsets.UTF_8)));
        }
    }

    @Override
    public void barrier() throws IOException {
        send(BootstrapProtocol.BARRIER, new byte[0]);
        awaitReply(BootstrapProtocol.RELEASED);
    }

    private void send(byte type, byte[] body) throws IOException {
        if (ended.get()) {
            throw new IOException("the job has ended: " + endReason);
        }
        if (closing) {
            throw new IOException("this bootstrap client is closed");
        }
        synchronized (out) {
            BootstrapProtocol.write(out, type, body);
        }
    }

    private Frame awaitReply(byte expected) throws IOException {
        Frame frame;
        try {
            frame = replies.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for the other ranks");
        }
        if (frame == JOB_OVER) {
            replies.add(JOB_OVER); // later calls fail the same way
            throw new IOException("the job has ended: " + endReason);
        }
        if (frame.type() != expected) {
            throw new IOException("bootstrap answer of type " + frame.type() + " where " + expected
                    + " was expected: collectives called out of order");
        }
        return frame;
    }

    /**
     * Asks the launcher to end the job and waits (bounded) until it does, which runs {@code onJobEnd}; if the
     * launcher cannot be told or does not answer in time, runs {@code onJobEnd} itself. Returns only if
     * {@code onJobEnd} returns (it halts a real process).
     */
    @Override
    public void abort(int code, String message) {
        try {
            synchronized (out) {
                BootstrapProtocol.write(out, BootstrapProtocol.ABORT,
                        BootstrapProtocol.codeAndMessage(code, message == null ? "" : message));
            }
            if (endedLatch.await(ABORT_CONFIRM_MILLIS, TimeUnit.MILLISECONDS)) {
                return;
            }
            endJob("MPI_Abort(" + code + ", " + message + "): the launcher did not end the job in time");
        } catch (IOException e) {
            endJob("MPI_Abort(" + code + ", " + message + "): cannot reach the launcher (" + e.getMessage() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            endJob("MPI_Abort(" + code + ", " + message + "): interrupted while waiting for the launcher");
        }
    }

    /** Leaves the job cleanly: tells the launcher this rank is done (BYE), then closes the connection. */
    @Override
    public void close() {
        if (closing) {
            return;
        }
        closing = true;
        try {
            if (!ended.get()) {
                synchronized (out) {
                    BootstrapProtocol.write(out, BootstrapProtocol.BYE, new byte[0]);
                }
                socket.shutdownOutput();
                // let the service read BYE and close its side first, so our close cannot reset the connection
                watcher.join(CLOSE_LINGER_MILLIS);
            }
        } catch (IOException e) {
            // the launcher is gone already; nothing left to tell it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
