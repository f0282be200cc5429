package org.weft.mm.module.shm;

import static org.weft.mm.module.shm.RingAccess.FLAG;
import static org.weft.mm.module.shm.RingLayout.SLEEPING_OFFSET;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.function.BooleanSupplier;
import org.weft.mm.spi.Doorbell;

/**
 * The shm module's doorbell. Memory has nothing the kernel could wake a thread on, so each process has a datagram
 * socket on loopback, its <em>bell</em>, whose port is in its inbox header beside a <em>sleeping</em> flag. Before a
 * waiter sleeps it raises the flag and looks at its rings once more; a sender that finds the flag raised after
 * publishing a record lowers it (one sender wins) and sends the bell an empty datagram, which ends the sleeper's
 * {@code select}. A send costs one load of a cache line that changes only when the owner goes to sleep.
 *
 * <p>No fence between a sender's publication and its look at the flag: in the rare case that it reads the flag
 * before its record is visible to the owner's last look, the owner sleeps out its period (a millisecond), as every
 * park did before. A stranger's datagrams only end sleeps early.
 */
final class ShmDoorbell implements Doorbell {
    private final MemorySegment ownHeader;
    private final DatagramChannel bell;
    private final BooleanSupplier recordsWaiting;
    private final BooleanSupplier hasPeers;
    /** Where {@link #afterSleep()} drains the bell (only the one sleeper calls it). */
    private final ByteBuffer drain = ByteBuffer.allocate(16);

    /**
     * {@code ownHeader}: this process's inbox header; {@code recordsWaiting}: whether a polled ring has a record;
     * {@code hasPeers}: whether any peer could ring.
     */
    ShmDoorbell(MemorySegment ownHeader, DatagramChannel bell, BooleanSupplier recordsWaiting,
                BooleanSupplier hasPeers) {
        this.ownHeader = ownHeader;
        this.bell = bell;
        this.recordsWaiting = recordsWaiting;
        this.hasPeers = hasPeers;
    }

    /** A bell on loopback, non-blocking, on a port of the system's choosing. */
    static DatagramChannel openBell() {
        try {
            DatagramChannel bell = DatagramChannel.open();
            bell.configureBlocking(false);
            bell.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return bell;
        } catch (IOException e) {
            throw new UncheckedIOException("shm: cannot open the doorbell's socket", e);
        }
    }

    static int portOf(DatagramChannel bell) {
        try {
            return ((InetSocketAddress) bell.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void attach(Selector selector) {
        try {
            bell.register(selector, SelectionKey.OP_READ);
        } catch (ClosedChannelException | ClosedSelectorException e) {
            // shut down meanwhile: nothing to wait for
        }
    }

    @Override
    public boolean isArmed() {
        return hasPeers.getAsBoolean() && bell.isOpen();
    }

    @Override
    public boolean beforeSleep() {
        FLAG.setVolatile(ownHeader, (long) SLEEPING_OFFSET, 1); // a full fence: the look below comes after it
        return !recordsWaiting.getAsBoolean();
    }

    @Override
    public void afterSleep() {
        FLAG.setRelease(ownHeader, (long) SLEEPING_OFFSET, 0);
        try {
            while (bell.receive(drain.clear()) != null) {
                // each datagram only said "look"
            }
        } catch (IOException e) {
            // closed at shutdown: nothing left to drain
        }
    }

    /**
     * A peer's bell, rung by this process's sends to it, from any thread: with an empty datagram, whose buffer has
     * nothing to read and so may be shared (a new one-byte buffer per ring was garbage on every wake-up).
     */
    static final class PeerBell {
        private static final ByteBuffer RING = ByteBuffer.allocate(0);

        private final MemorySegment peerHeader;
        private final InetSocketAddress address;
        private final DatagramChannel from;

        /** {@code peerHeader}: the peer's inbox header, which holds its bell's port and its sleeping flag. */
        PeerBell(MemorySegment peerHeader, DatagramChannel from) {
            this.peerHeader = peerHeader;
            this.address = new InetSocketAddress(InetAddress.getLoopbackAddress(),
                    peerHeader.get(RingAccess.INT, RingLayout.DOORBELL_PORT_OFFSET));
            this.from = from;
        }

        /** After a record was published to the peer: wakes it if it sleeps and no other sender has yet. */
        void ringIfSleeping() {
            if ((int) FLAG.getAcquire(peerHeader, (long) SLEEPING_OFFSET) != 0
                    && FLAG.compareAndSet(peerHeader, (long) SLEEPING_OFFSET, 1, 0)) {
                try {
                    from.send(RING, address);
                } catch (IOException e) {
                    // the sleeper wakes at the end of its period anyway
                }
            }
        }
    }
}
