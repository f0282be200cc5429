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
 * <p>A sleep of any length can instead be on a futex on the same flag ({@link #sleepAlone}, when this is the only
 * doorbell armed): the flag then says {@link #ON_FUTEX}, and a sender that lowers it wakes the futex instead of
 * sending a datagram. {@code select} counts milliseconds, so before this the back-off's shorter parks (1 µs–0.5 ms,
 * with more ranks than cores) slept out their period whatever came: a collective's member that published found
 * nobody to wake, and the waiter sat up to half a millisecond on a flag already set.
 *
 * <p>No fence between a sender's publication and its look at the flag: in the rare case that it reads the flag
 * before its record is visible to the owner's last look, the owner sleeps out its period (a millisecond), as every
 * park did before. A stranger's datagrams only end sleeps early.
 */
final class ShmDoorbell implements Doorbell {
    /** The sleeping flag's values: awake, asleep in the wake selector (ring with a datagram), asleep on the futex. */
    static final int AWAKE = 0;
    static final int IN_SELECT = 1;
    static final int ON_FUTEX = 2;

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
        FLAG.setVolatile(ownHeader, (long) SLEEPING_OFFSET, IN_SELECT); // a full fence: the look below comes after it
        return !recordsWaiting.getAsBoolean();
    }

    /**
     * Sleeps on the futex of the sleeping flag, when futexes work here: raises the flag, looks at the rings and at
     * {@code done} (may be null) once more, and sleeps up to {@code nanos} unless something came; a ring or
     * {@link #interrupt} ends it. Not before the futex is bound ({@link Futex#bindInBackground}).
     */
    @Override
    public boolean sleepAlone(long nanos, BooleanSupplier done) {
        Futex futex = Futex.ready();
        if (futex == null) {
            return false;
        }
        FLAG.setVolatile(ownHeader, (long) SLEEPING_OFFSET, ON_FUTEX); // a full fence: the looks below come after it
        if (!recordsWaiting.getAsBoolean() && (done == null || !done.getAsBoolean())) {
            futex.await(ownHeader.address() + SLEEPING_OFFSET, ON_FUTEX, nanos);
        }
        FLAG.setRelease(ownHeader, (long) SLEEPING_OFFSET, AWAKE); // no datagram to drain: nobody sent one
        return true;
    }

    /** Ends a {@link #sleepAlone} in progress (a completion on another thread of this process); else nothing. */
    @Override
    public void interrupt() {
        if ((int) FLAG.getAcquire(ownHeader, (long) SLEEPING_OFFSET) == ON_FUTEX
                && FLAG.compareAndSet(ownHeader, (long) SLEEPING_OFFSET, ON_FUTEX, AWAKE)) {
            Futex.ready().wake(ownHeader.address() + SLEEPING_OFFSET); // bound: it slept on it
        }
    }

    @Override
    public void afterSleep() {
        FLAG.setRelease(ownHeader, (long) SLEEPING_OFFSET, AWAKE);
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

        /**
         * After a record was published to the peer, or shared memory it may wait on written: wakes it if it sleeps
         * and no other sender has yet, the way it sleeps.
         */
        void ringIfSleeping() {
            int sleeping = (int) FLAG.getAcquire(peerHeader, (long) SLEEPING_OFFSET);
            // on the futex before this process bound it (it binds as the peer did, a little later): the peer
            // sleeps out its park, at most a millisecond
            Futex futex = sleeping == ON_FUTEX ? Futex.ready() : null;
            if (sleeping == AWAKE || (sleeping == ON_FUTEX && futex == null)
                    || !FLAG.compareAndSet(peerHeader, (long) SLEEPING_OFFSET, sleeping, AWAKE)) {
                return;
            }
            if (futex != null) {
                futex.wake(peerHeader.address() + SLEEPING_OFFSET);
                return;
            }
            try {
                from.send(RING, address);
            } catch (IOException e) {
                // the sleeper wakes at the end of its period anyway
            }
        }
    }

}
