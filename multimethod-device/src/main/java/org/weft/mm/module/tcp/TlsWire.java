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
 * <p>Buffers (made once): {@code netOut}, records for the socket, up to {@value #RECORDS_PER_WRITE} so that one
 * socket write carries many; {@code socketOut}, the records the socket has not taken, in direct memory;
 * {@code netIn}, bytes from the socket; {@code appIn}, one record's plaintext on its way to a reader's buffer too
 * small for it. The engine encrypts and decrypts a record in place in the buffer that holds
 * its ciphertext ({@code netOut}, {@code netIn}), and that buffer's kind sets the cipher's speed: JDK 25's AES-GCM ran
 * 6.5 GB/s encrypting and 4.0 decrypting in a heap buffer against 2.8 in a direct one (thread CPU time, 16 KiB
 * records), so both are on the heap. A socket copies a heap buffer into a direct one of its own before each write, all
 * of it however little the socket then takes (nothing when it is full, as it is when a poller retries a large
 * message): the records are therefore moved once into {@code socketOut} and written from there. The
 * plaintext side's kind does not matter (the engine copies it): a write encrypts straight from the caller's
 * buffers, and a read decrypts straight into the caller's buffer when a whole record fits there, so each byte is
 * copied once on each side besides the socket's own copies.
 *
 * <p>Locking: {@code lock} guards {@code netOut} and the engine's wraps, and the whole handshake (which touches
 * {@code netIn} too); once the handshake is done, the one reading thread uses {@code netIn} and {@code appIn} alone
 * and takes the lock only to answer a post-handshake message.
 */
final class TlsWire implements Wire {
    /** Records encrypted before one socket write: large writes cost one system call per ~256 KiB, not per 16. */
    static final int RECORDS_PER_WRITE = 16;
    /** A TLS record's header: content type, legacy version, length of what follows (two bytes, big-endian). */
    private static final int RECORD_HEADER = 5;

    private final SocketChannel socket;
    private final SSLEngine engine;
    private final ReentrantLock lock = new ReentrantLock();
    private final int packetSize;
    /** Records for the socket, in read mode (position to limit: not written yet). Under {@link #lock}. */
    private ByteBuffer netOut;
    /** Records moved from {@link #netOut} for the socket, in read mode. Under {@link #lock}. */
    private final ByteBuffer socketOut;
    /** Bytes from the socket not decrypted yet, in read mode. The reader's (the handshake's: under the lock). */
    private ByteBuffer netIn;
    /** Plaintext not given to the reader yet, in read mode. The reader's. */
    private final ByteBuffer appIn;
    /** The one source of {@link #write(ByteBuffer)}, kept to wrap without garbage. Under {@link #lock}. */
    private final ByteBuffer[] single = new ByteBuffer[1];
    /**
     * {@link #appIn} as the cipher's target: {@code SSLEngine.unwrap(ByteBuffer, ByteBuffer)} would wrap it in a new
     * array on every record.
     */
    private final ByteBuffer[] appTarget;
    /** The reader's buffer as the cipher's target, while a record is decrypted straight into it. The reader's. */
    private final ByteBuffer[] readerTarget = new ByteBuffer[1];
    private volatile boolean established;
    /** The peer closed the socket (or its TLS session): nothing more will come. The reader's. */
    private boolean endOfStream;

    private TlsWire(SocketChannel socket, SSLEngine engine, byte[] preamble) throws SSLException {
        this.socket = socket;
        this.engine = engine;
        this.packetSize = engine.getSession().getPacketBufferSize();
        this.netOut = ByteBuffer.allocate(Math.max(RECORDS_PER_WRITE * packetSize, preamble.length + packetSize));
        this.netOut.put(preamble).flip();
        this.socketOut = ByteBuffer.allocateDirect(RECORDS_PER_WRITE * packetSize).limit(0);
        this.netIn = ByteBuffer.allocate(RECORDS_PER_WRITE * packetSize).limit(0);
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()).limit(0);
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
     * Decrypts the next record of {@code netIn} and gives the reader its plaintext: straight into {@code destination}
     * when the record fits there, else through {@code appIn} (as much as fits; the rest on the next read). Returns
     * the bytes given, or -1 when {@code netIn} holds no whole record.
     */
    private int unwrapInto(ByteBuffer destination) throws IOException {
        if (destination.remaining() >= nextRecordLength()) {
            readerTarget[0] = destination;
            try {
                SSLEngineResult result = unwrap(readerTarget);
                if (result.getStatus() == SSLEngineResult.Status.OK) {
                    answerPostHandshake(result.getHandshakeStatus());
                    return result.bytesProduced();
                }
                if (result.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    return endOrUnderflow(result);
                }
            } finally {
                readerTarget[0] = null;
            }
        }
        SSLEngineResult result;
        appIn.compact();
        try {
            result = unwrap(appTarget);
        } finally {
            appIn.flip();
        }
        if (result.getStatus() != SSLEngineResult.Status.OK) {
            return endOrUnderflow(result);
        }
        answerPostHandshake(result.getHandshakeStatus());
        return drainApplication(destination);
    }

    /**
     * The ciphertext length of the record at the start of {@code netIn} (at least its plaintext's), or
     * {@code Integer.MAX_VALUE} while its header is not all there.
     */
    private int nextRecordLength() {
        return netIn.remaining() < RECORD_HEADER ? Integer.MAX_VALUE
                : netIn.getShort(netIn.position() + RECORD_HEADER - 2) & 0xFFFF;
    }

    private SSLEngineResult unwrap(ByteBuffer[] target) throws SSLException {
        try {
            return engine.unwrap(netIn, target, 0, 1);
        } catch (SSLException e) {
            throw new SSLException("TLS record failed its integrity check (altered on the way?): " + e.getMessage(),
                    e);
        }
    }

    /** -1 for an unwrap that gave nothing: no whole record yet, or the end of the session. */
    private int endOrUnderflow(SSLEngineResult result) throws SSLException {
        switch (result.getStatus()) {
            case BUFFER_UNDERFLOW -> {
                return -1;
            }
            case CLOSED -> {
                endOfStream = true;
                return -1;
            }
            default -> throw new SSLException("TLS record larger than the session's buffers");
        }
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
        if (netIn.position() == 0) {
            netIn.position(netIn.limit()).limit(netIn.capacity()); // as compact() does, without copying onto itself
        } else {
            netIn.compact(); // slides a partial record to the front, once: the next read finds it at 0
        }
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
     * Encrypts {@code sources} while the socket takes the records, keeping at most {@value #RECORDS_PER_WRITE}
     * records it did not take; returns the plaintext bytes taken (0 before the
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
            flushRecords();
            long taken = 0;
            while (hasRoomForRecord()) {
                long wrapped = wrapRecords(sources, offset, length);
                if (wrapped == 0) {
                    break;
                }
                taken += wrapped;
                flushRecords();
            }
            return taken;
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: whether {@code netOut} has room for one more record. */
    private boolean hasRoomForRecord() {
        return netOut.capacity() - netOut.remaining() >= packetSize;
    }

    /**
     * Under the lock: encrypts {@code sources} straight into {@code netOut}, as many records as it has room for
     * (one compaction); returns the plaintext bytes taken.
     */
    private long wrapRecords(ByteBuffer[] sources, int offset, int length) throws IOException {
        long left = remaining(sources, offset, length);
        long taken = 0;
        netOut.compact();
        try {
            while (taken < left && netOut.remaining() >= packetSize) {
                SSLEngineResult result = engine.wrap(sources, offset, length, netOut);
                if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw new SSLException("TLS session closed");
                }
                taken += result.bytesConsumed();
            }
        } finally {
            netOut.flip();
        }
        return taken;
    }

    private static long remaining(ByteBuffer[] sources, int offset, int length) {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            total += sources[i].remaining();
        }
        return total;
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
        while (netOut.hasRemaining() || socketOut.hasRemaining()) {
            moveToSocketOut();
            int n = socket.write(socketOut);
            if (n <= 0) {
                break;
            }
            written += n;
        }
        return written;
    }

    /**
     * Under the lock: once the socket has taken all of {@code socketOut}, refills it from {@code netOut} (so each
     * byte is copied once, never slid along).
     */
    private void moveToSocketOut() {
        if (socketOut.hasRemaining() || !netOut.hasRemaining()) {
            return;
        }
        int n = Math.min(netOut.remaining(), socketOut.capacity());
        socketOut.clear().put(0, netOut, netOut.position(), n).limit(n);
        netOut.position(netOut.position() + n);
    }

    @Override
    public int flush() throws IOException {
        lock.lock();
        try {
            if (!established) {
                handshake();
                return flushRecords();
            }
            return flushRecords();
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
                    if (!hasRoomForRecord()) {
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
        return !established || netOut.hasRemaining() || socketOut.hasRemaining();
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
