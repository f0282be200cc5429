package org.weft.mm.module.tcp;

import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.weft.mm.spi.Doorbell;

/**
 * The tcp module's doorbell: every authenticated inbound connection is registered for reading with the process's
 * wake selector (besides Netty's, which no longer reads it), so a sleeping waiter's {@code select} returns when one
 * has bytes: the kernel wakes it at the arrival, as it woke Netty's event loop, while the data path stays on the
 * polling threads. The selected keys only say "poll now": the polls read the bytes.
 */
final class TcpDoorbell implements Doorbell {
    private final Supplier<InboundStream[]> streams;
    private final BooleanSupplier armed;
    private volatile Selector selector;

    /**
     * {@code streams}: the module's authenticated inbound connections now (a copy); {@code armed}: whether it has
     * any (asked before each sleep: no copy).
     */
    TcpDoorbell(Supplier<InboundStream[]> streams, BooleanSupplier armed) {
        this.streams = streams;
        this.armed = armed;
    }

    @Override
    public synchronized void attach(Selector selector) {
        this.selector = selector;
        for (InboundStream stream : streams.get()) {
            register(stream.socket(), selector);
        }
    }

    /** Watches {@code socket} (non-blocking) until it closes, once attached. */
    synchronized void watch(SocketChannel socket) {
        Selector s = selector;
        if (s != null && register(socket, s)) { // before attach(), attach() registers it
            s.wakeup(); // a select in progress sees a new channel only when it selects again
        }
    }

    private static boolean register(SocketChannel socket, Selector selector) {
        try {
            socket.register(selector, SelectionKey.OP_READ);
            return true;
        } catch (ClosedChannelException | ClosedSelectorException e) {
            return false; // closed meanwhile: nothing to wait for on it
        }
    }

    @Override
    public boolean isArmed() {
        return armed.getAsBoolean();
    }

    @Override
    public boolean beforeSleep() {
        return true; // bytes already waiting make the select return at once
    }

    @Override
    public void afterSleep() {
    }
}
