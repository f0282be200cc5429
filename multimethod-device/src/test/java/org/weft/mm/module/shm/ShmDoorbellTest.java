package org.weft.mm.module.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.DatagramChannel;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.mm.progress.DoorbellParker;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.Doorbell;
import org.weft.mm.spi.StubModule;

/**
 * The shm doorbell's sleeps: a waiter's short parks (more ranks than cores: from a microsecond up) sleep where a
 * peer that wrote what it waits for finds and wakes it, as its long ones always did. Peers are mappings of the same
 * inbox header file, as another process maps it.
 */
class ShmDoorbellTest {
    private static final long TEN_SECONDS = TimeUnit.SECONDS.toNanos(10);

    @TempDir
    Path dir;

    /** A mapping of the inbox header file (each call: another mapping of the same bytes, as a peer's). */
    private MemorySegment header(Arena arena) throws Exception {
        Path file = dir.resolve("inbox");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, RingLayout.FILE_HEADER_LENGTH, arena);
        }
    }

    private static Futex boundFutex() throws InterruptedException {
        Futex.bindInBackground();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (Futex.ready() == null && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        return Futex.ready();
    }

    @Test
    void aFutexBindsAndWakesNobodyWhereNobodySleeps() {
        Futex futex = Futex.bind();
        assertNull(futex.cause());
        assertTrue(futex.isAvailable());
    }

    @Test
    void aShortParkSleepsWhereAPeersRingFindsIt() throws Exception {
        assertNotNull(boundFutex(), "futexes work on this Linux");
        try (Arena arena = Arena.ofShared(); DatagramChannel bell = ShmDoorbell.openBell()) {
            MemorySegment own = header(arena);
            MemorySegment peersView = header(arena);
            ShmDoorbell doorbell = new ShmDoorbell(own, bell, () -> false, () -> true);
            CommModule module = new DoorbellModule(doorbell);
            try (DoorbellParker parker = new DoorbellParker(List.of(module))) {
                // the back-off's parks with more ranks than cores: 1 us up to half a millisecond. Before, they were
                // LockSupport.parkNanos: no flag raised, and a peer that published found nobody to wake.
                AtomicBoolean watched = new AtomicBoolean();
                CompletableFuture<Void> parking = CompletableFuture.runAsync(() -> {
                    while (!watched.get()) {
                        parker.park(500_000);
                    }
                });
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                int seen = ShmDoorbell.AWAKE;
                while (seen == ShmDoorbell.AWAKE && System.nanoTime() < deadline) {
                    seen = sleeping(peersView);
                }
                watched.set(true);
                parking.get(20, TimeUnit.SECONDS);
                assertEquals(ShmDoorbell.ON_FUTEX, seen, "a short park raised the flag a peer's ring looks at");
            }
        }
    }

    @Test
    void aPeersRingEndsASleepOnTheFutexAndNothingElseDoes() throws Exception {
        assertNotNull(boundFutex(), "futexes work on this Linux");
        try (Arena arena = Arena.ofShared(); DatagramChannel bell = ShmDoorbell.openBell();
             DatagramChannel from = ShmDoorbell.openBell()) {
            MemorySegment own = header(arena);
            MemorySegment peersView = header(arena);
            ShmDoorbell doorbell = new ShmDoorbell(own, bell, () -> false, () -> true);
            ShmDoorbell.PeerBell peer = new ShmDoorbell.PeerBell(peersView, from);
            peer.ringIfSleeping(); // nobody sleeps: the flag stays down, nothing is woken later by it
            assertEquals(ShmDoorbell.AWAKE, sleeping(peersView));

            CompletableFuture<Long> slept = CompletableFuture.supplyAsync(() -> {
                long start = System.nanoTime();
                assertTrue(doorbell.sleepAlone(TEN_SECONDS, () -> false));
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sleeping(peersView) != ShmDoorbell.ON_FUTEX && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            Thread.sleep(100); // asleep in the kernel by now, most likely; a ring before that is not lost either
            peer.ringIfSleeping();
            long millis = slept.get(20, TimeUnit.SECONDS);
            assertTrue(millis < 5_000, "slept " + millis + " ms of 10 s though a peer rang");
            assertEquals(ShmDoorbell.AWAKE, sleeping(peersView));
        }
    }

    @Test
    void aSleeperWhoseConditionIsAlreadyTrueOrThatAnotherThreadInterruptsDoesNotSleepItsPeriod() throws Exception {
        assertNotNull(boundFutex(), "futexes work on this Linux");
        try (Arena arena = Arena.ofShared(); DatagramChannel bell = ShmDoorbell.openBell()) {
            MemorySegment own = header(arena);
            ShmDoorbell doorbell = new ShmDoorbell(own, bell, () -> false, () -> true);
            long start = System.nanoTime();
            assertTrue(doorbell.sleepAlone(TEN_SECONDS, () -> true));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "looked at its condition first");

            CompletableFuture<Long> slept = CompletableFuture.supplyAsync(() -> {
                long from = System.nanoTime();
                doorbell.sleepAlone(TEN_SECONDS, null);
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - from);
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sleeping(own) != ShmDoorbell.ON_FUTEX && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            Thread.sleep(100);
            doorbell.interrupt();
            assertTrue(slept.get(20, TimeUnit.SECONDS) < 5_000, "interrupted");
            assertEquals(ShmDoorbell.AWAKE, sleeping(own));
        }
    }

    /** A module with the doorbell under test, for a parker. */
    private static final class DoorbellModule extends StubModule {
        private final Doorbell doorbell;

        DoorbellModule(Doorbell doorbell) {
            super("shm");
            this.doorbell = doorbell;
        }

        @Override
        public Doorbell doorbell() {
            return doorbell;
        }
    }

    private static int sleeping(MemorySegment header) {
        return (int) RingAccess.FLAG.getVolatile(header, (long) RingLayout.SLEEPING_OFFSET);
    }
}
