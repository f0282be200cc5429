package org.weft.mm.module.tcp;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * A {@link Wire} that is a TLS session ({@code SSLEngine}) over the socket: frames are encrypted and authenticated
 * below the link and the stream, which see plaintext. Non-blocking like the socket: the handshake advances in
 * whichever of {@link #read}, {@link #write} and {@link #flush} runs (the pollers call them), and application bytes
 * are taken only once it is done.
 *
 * <p>Buffers (made once, on the Java heap: the JDK's AES-GCM ran 5-10 times faster between heap buffers than
 * between direct ones here, 0.5-1 GB/s against 0.06-0.14 under the same load, which pays for a copy on each side):
 * {@code plainOut}, the writer's plaintext copied for the cipher; {@code netOut}, records for the socket, up to
 * {@value #RECORDS_PER_WRITE} so that one socket write carries many; {@code netIn}, bytes from the socket;
 * {@code appIn}, one record's plaintext on its way to the reader's buffer.
 *
 * <p>Locking: {@code lock} guards {@code netOut} and the engine's wraps, and the whole handshake (which touches
 * {@code netIn} too); once the handshake is done, the one reading thread uses {@code netIn} and {@code appIn} alone
 * and takes the lock only to answer a post-handshake message.
 */
final class TlsWire implements Wire {
    /** Records encrypted before one socket write: large writes cost one system call per ~256 KiB, not per 16. */
    static final int RECORDS_PER_WRITE = 16;

    private final SocketChannel socket;
    private final SSLEngine engine;
    private final ReentrantLock lock = new ReentrantLock();
    private final int packetSize;
    private final int applicationSize;
    /** Plaintext taken from the writer and not encrypted yet, in read mode. Under {@link #lock}. */
    private final ByteBuffer plainOut;
    /** Records for the socket, in read mode (position to limit: not written yet). Under {@link #lock}. */
    private ByteBuffer netOut;
    /** Bytes from the socket not decrypted yet, in read mode. The reader's (the handshake's: under the lock). */
    private ByteBuffer netIn;
    /** Plaintext not given to the reader yet, in read mode. The reader's. */
    private final ByteBuffer appIn;
    /** The one source of {@link #write(ByteBuffer)}, kept to wrap without garbage. Under {@link #lock}. */
    private final ByteBuffer[] single = new ByteBuffer[1];
    /** {@link #plainOut} as the cipher's source. */
    private final ByteBuffer[] plainSource;
    /**
     * {@link #appIn} as the cipher's target: {@code SSLEngine.unwrap(ByteBuffer, ByteBuffer)} would wrap it in a new
     * array on every record.
     */
    private final ByteBuffer[] appTarget;
    private volatile boolean established;
    /** The peer closed the socket (or its TLS session): nothing more will come. The reader's. */
    private boolean endOfStream;

    private TlsWire(SocketChannel socket, SSLEngine engine, byte[] preamble) throws SSLException {
        this.socket = socket;
        this.engine = engine;
        this.packetSize = engine.getSession().getPacketBufferSize();
        this.applicationSize = engine.getSession().getApplicationBufferSize();
        this.plainOut = ByteBuffer.allocate(RECORDS_PER_WRITE * applicationSize).limit(0);
        this.plainSource = new ByteBuffer[] {plainOut};
        this.netOut = ByteBuffer.allocate(Math.max(RECORDS_PER_WRITE * packetSize, preamble.length + packetSize));
        this.netOut.put(preamble).flip();
        this.netIn = ByteBuffer.allocate(RECORDS_PER_WRITE * packetSize).limit(0);
        this.appIn = ByteBuffer.allocate(applicationSize).limit(0);
        this.appTarget = new ByteBuffer[] {appIn};
        engine.beginHandshake();
    }

    /**
     * The dialling side: writes {@code hello} (the HELLO frame, which tells the acceptor who connects and that TLS
     * follows) as it is, then the TLS client's first flight.
     */
    static TlsWire client(SocketChannel socket, SSLEngine engine, byte[] hello) throws SSLException {
        return new TlsWire(socket, engine, hello);
    }

    /** The accepting side, after a HELLO that announced TLS. */
    static TlsWire server(SocketChannel socket, SSLEngine engine) throws SSLException {
        return new TlsWire(socket, engine, new byte[0]);
    }

    @Override
    public SocketChannel socket() {
        return socket;
    }

    /** Whether the handshake is done (both ends proved their ranks). */
    @Override
    public boolean isEstablished() {
        return established;
    }

    /** The cipher suite agreed on, once established. */
    String cipherSuite() {
        return engine.getSession().getCipherSuite();
    }

    /** Takes bytes already read from the socket (past the HELLO, by the acceptor) as the first ones. */
    @Override
    public boolean preload(ByteBuffer raw) {
        lock.lock();
        try {
            ensureInRoom(raw.remaining());
            netIn.compact().put(raw).flip();
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int read(ByteBuffer destination) throws IOException {
        if (!established) {
            if (!lock.tryLock()) {
                return 0; // the writer is advancing the handshake
            }
            try {
                handshake();
            } finally {
                lock.unlock();
            }
            if (!established) {
                return 0;
            }
        }
        int produced = drainApplication(destination);
        boolean socketRead = false;
        while (destination.hasRemaining() && !appIn.hasRemaining()) {
            if (netIn.hasRemaining()) {
                int n = unwrapInto(destination);
                if (n >= 0) {
                    produced += n;
                    continue;
                }
            }
            if (socketRead || endOfStream) {
                break; // one socket read per call: the stream calls again while it gets bytes
            }
            socketRead = true;
            if (!readSocket()) {
                break;
            }
        }
        return produced == 0 && endOfStream && !hasBufferedInput() ? -1 : produced;
    }

    /**
     * Decrypts the next record of {@code netIn} into {@code appIn} and gives the reader as much as fits. Returns the
     * bytes given, or -1 when {@code netIn} holds no whole record.
     */
    private int unwrapInto(ByteBuffer destination) throws IOException {
        SSLEngineResult result;
        appIn.compact();
        try {
            result = engine.unwrap(netIn, appTarget, 0, 1);
        } catch (SSLException e) {
            throw new SSLException("TLS record failed its integrity check (altered on the way?): " + e.getMessage(),
                    e);
        } finally {
            appIn.flip();
        }
        switch (result.getStatus()) {
            case BUFFER_UNDERFLOW -> {
                return -1;
            }
            case CLOSED -> {
                endOfStream = true;
                return -1;
            }
            case BUFFER_OVERFLOW -> throw new SSLException("TLS record larger than the session's buffers");
            default -> { }
        }
        answerPostHandshake(result.getHandshakeStatus());
        return drainApplication(destination);
    }

    /** After the handshake the peer may send a message to answer (a key update): the answer goes out now. */
    private void answerPostHandshake(HandshakeStatus status) throws IOException {
        if (status == HandshakeStatus.NEED_TASK) {
            runTasks();
            status = engine.getHandshakeStatus();
        }
        if (status == HandshakeStatus.NEED_WRAP) {
            lock.lock();
            try {
                wrap(EMPTY, 0, 0);
                flushRecords();
            } finally {
                lock.unlock();
            }
        }
    }

    private static final ByteBuffer[] EMPTY = {ByteBuffer.allocate(0)};

    private int drainApplication(ByteBuffer destination) {
        int n = Math.min(appIn.remaining(), destination.remaining());
        if (n > 0) {
            destination.put(destination.position(), appIn, appIn.position(), n);
            destination.position(destination.position() + n);
            appIn.position(appIn.position() + n);
        }
        return n;
    }

    /** One read of the socket into {@code netIn}; false when it gave nothing (none waiting, or the end). */
    private boolean readSocket() throws IOException {
        netIn.compact();
        int n;
        try {
            n = socket.read(netIn);
        } finally {
            netIn.flip();
        }
        if (n < 0) {
            endOfStream = true;
        }
        return n > 0;
    }

    @Override
    public int write(ByteBuffer source) throws IOException {
        lock.lock();
        try {
            single[0] = source;
            return (int) write(single, 0, 1);
        } finally {
            single[0] = null;
            lock.unlock();
        }
    }

    /**
     * Takes plaintext from {@code sources} and encrypts it while the socket takes the records, keeping at most
     * {@value #RECORDS_PER_WRITE} records' worth it did not take; returns the plaintext bytes taken (0 before the
     * handshake is done, or while the socket is full).
     */
    @Override
    public long write(ByteBuffer[] sources, int offset, int length) throws IOException {
        lock.lock();
        try {
            if (!established) {
                handshake();
                if (!established) {
                    return 0;
                }
            }
            pump();
            long taken = 0;
            while (!plainOut.hasRemaining() && remaining(sources, offset, length) > 0) {
                taken += takePlaintext(sources, offset, length);
                pump();
            }
            return taken;
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock, {@code plainOut} empty: copies as much of {@code sources} as it holds; returns how much. */
    private int takePlaintext(ByteBuffer[] sources, int offset, int length) {
        plainOut.clear();
        for (int i = offset; i < offset + length && plainOut.hasRemaining(); i++) {
            ByteBuffer source = sources[i];
            int n = Math.min(source.remaining(), plainOut.remaining());
            plainOut.put(plainOut.position(), source, source.position(), n);
            plainOut.position(plainOut.position() + n);
            source.position(source.position() + n);
        }
        plainOut.flip();
        return plainOut.remaining();
    }

    /** Under the lock: encrypts {@code plainOut} and writes the records until both are empty or the socket full. */
    private void pump() throws IOException {
        while (true) {
            if (plainOut.hasRemaining() && netOut.capacity() - netOut.remaining() >= packetSize) {
                wrapRecords();
            }
            if (!netOut.hasRemaining() && !plainOut.hasRemaining()) {
                return;
            }
            flushRecords();
            if (netOut.hasRemaining()) {
                return; // the socket is full
            }
        }
    }

    private static long remaining(ByteBuffer[] sources, int offset, int length) {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            total += sources[i].remaining();
        }
        return total;
    }

    /** Under the lock: as many records of {@code plainOut} as {@code netOut} has room for (one compaction). */
    private void wrapRecords() throws IOException {
        netOut.compact();
        try {
            while (plainOut.hasRemaining() && netOut.remaining() >= packetSize) {
                if (engine.wrap(plainSource, 0, 1, netOut).getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw new SSLException("TLS session closed");
                }
            }
        } finally {
            netOut.flip();
        }
    }

    /** Under the lock: one record (or a handshake message) into {@code netOut}. */
    private SSLEngineResult wrap(ByteBuffer[] sources, int offset, int length) throws IOException {
        netOut.compact();
        SSLEngineResult result;
        try {
            result = engine.wrap(sources, offset, length, netOut);
        } finally {
            netOut.flip();
        }
        if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new SSLException("TLS session closed");
        }
        return result;
    }

    /** Under the lock: writes records until the socket takes no more; returns the bytes written. */
    private int flushRecords() throws IOException {
        int written = 0;
        while (netOut.hasRemaining()) {
            int n = socket.write(netOut);
            if (n <= 0) {
                break;
            }
            written += n;
        }
        return written;
    }

    @Override
    public int flush() throws IOException {
        lock.lock();
        try {
            if (!established) {
                handshake();
                return flushRecords();
            }
            int before = netOut.remaining() + plainOut.remaining();
            pump();
            return before - netOut.remaining() - plainOut.remaining();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Under the lock: advances the handshake as far as it goes without waiting (bounded: a peer cannot keep a
     * poller here), writing what it has to send and reading what it needs.
     */
    private void handshake() throws IOException {
        flushRecords();
        for (int steps = 0; steps < 64 && !established; steps++) {
            switch (engine.getHandshakeStatus()) {
                case NOT_HANDSHAKING, FINISHED -> established = true;
                case NEED_TASK -> runTasks();
                case NEED_WRAP -> {
                    if (netOut.capacity() - netOut.remaining() < packetSize) {
                        return; // the socket has not taken the last flight yet
                    }
                    wrap(EMPTY, 0, 0);
                    flushRecords();
                }
                default -> { // NEED_UNWRAP, NEED_UNWRAP_AGAIN
                    if (!unwrapHandshake()) {
                        return;
                    }
                }
            }
        }
    }

    /** Under the lock: one handshake message from {@code netIn}, reading the socket first when none is whole. */
    private boolean unwrapHandshake() throws IOException {
        appIn.compact();
        SSLEngineResult result;
        try {
            result = engine.unwrap(netIn, appTarget, 0, 1);
        } finally {
            appIn.flip();
        }
        switch (result.getStatus()) {
            case BUFFER_UNDERFLOW -> {
                if (readSocket()) {
                    return true;
                }
                if (endOfStream) {
                    throw new EOFException("connection closed during the TLS handshake");
                }
                return false;
            }
            case CLOSED -> throw new SSLException("the peer closed the TLS session during its handshake");
            default -> {
                return true;
            }
        }
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    /** Room in {@code netIn} for {@code more} bytes besides those it holds. */
    private void ensureInRoom(int more) {
        if (netIn.capacity() - netIn.remaining() < more) {
            ByteBuffer bigger = ByteBuffer.allocateDirect(netIn.remaining() + more);
            bigger.put(netIn).flip();
            netIn = bigger;
        }
    }

    @Override
    public boolean hasBufferedInput() {
        return appIn.hasRemaining() || netIn.hasRemaining();
    }

    /** Records not on the socket yet, or a handshake still to advance. */
    @Override
    public boolean hasPendingOutput() {
        return !established || netOut.hasRemaining() || plainOut.hasRemaining();
    }

    @Override
    public boolean isOpen() {
        return socket.isOpen();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
