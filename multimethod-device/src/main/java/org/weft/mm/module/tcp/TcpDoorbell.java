package org.weft.mm.module.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.weft.mm.spi.Doorbell;

/**
 * The tcp module's doorbell: a selector of its own on which every authenticated inbound connection is registered for
 * reading (besides Netty's, which no longer reads it). A waiting thread sleeps in {@code select}, which returns when
 * a connection has bytes, so the kernel wakes it at the arrival as it woke Netty's event loop, while the data path
 * stays on the polling threads. One sleeper at a time; the selected keys only say "poll now".
 */
final class TcpDoorbell implements Doorbell {
    private final Selector selector;
    private final ReentrantLock sleeper = new ReentrantLock();
    private final AtomicInteger connections = new AtomicInteger();
    /** True while a thread is in {@code select}: a ring then calls {@code wakeup}, a system call, else nothing. */
    private volatile boolean sleeping;

    TcpDoorbell() {
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("tcp: cannot open a selector", e);
        }
    }

    /** Watches {@code socket} (non-blocking) until it closes. */
    void watch(SocketChannel socket) {
        try {
            socket.register(selector, SelectionKey.OP_READ);
            connections.incrementAndGet();
        } catch (ClosedChannelException | ClosedSelectorException e) {
            // closed meanwhile: nothing to wait for on it
        }
    }

    /** A watched connection closed (its key is cancelled with it). */
    void forget() {
        connections.decrementAndGet();
    }

    @Override
    public boolean isArmed() {
        return connections.get() > 0;
    }

    @Override
    public void await(long nanos) {
        if (!sleeper.tryLock()) {
            LockSupport.parkNanos(nanos);
            return;
        }
        try {
            sleeping = true;
            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos)));
            selector.selectedKeys().clear();
        } catch (IOException | ClosedSelectorException e) {
            LockSupport.parkNanos(nanos); // closing: sleep as a park would
        } finally {
            sleeping = false;
            sleeper.unlock();
        }
    }

    @Override
    public void ring() {
        if (sleeping) {
            selector.wakeup();
        }
    }

    @Override
    public void close() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing is all we wanted
        }
    }
}
