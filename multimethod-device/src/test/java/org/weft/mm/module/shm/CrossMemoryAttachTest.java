package org.weft.mm.module.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The single copy's system call, read against this process itself (the job tests read another process). */
class CrossMemoryAttachTest {
    private static final long PID = ProcessHandle.current().pid();

    @Test
    void readsBytesOfAProcessAtAnAddress() {
        CrossMemoryAttach cma = CrossMemoryAttach.bind();
        assertNull(cma.cause());
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment from = arena.allocate(3 << 20);
            for (long i = 0; i < from.byteSize(); i++) {
                from.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + (i >>> 12)));
            }
            MemorySegment into = arena.allocate(from.byteSize() - 5);
            assertEquals(0, cma.read(PID, from.address() + 5, into));
            assertEquals(-1, into.mismatch(from.asSlice(5)));
        }
    }

    /** The other way, for a large collective's writer: all of the local bytes land at the address. */
    @Test
    void writesBytesToAProcessAtAnAddress() {
        CrossMemoryAttach cma = CrossMemoryAttach.bind();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment from = arena.allocate(3 << 20);
            for (long i = 0; i < from.byteSize(); i++) {
                from.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (i * 5 + (i >>> 12)));
            }
            MemorySegment into = arena.allocate(from.byteSize() + 5);
            assertEquals(0, cma.write(PID, into.address() + 5, from, 3, from.byteSize() - 3));
            assertEquals(-1, into.asSlice(5, from.byteSize() - 3).mismatch(from.asSlice(3)));
            assertEquals(0, into.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 4));
            assertNotEquals(0, cma.write(PID, 8, from, 0, 16)); // nothing is mapped at address 8: EFAULT
        }
    }

    @Test
    void aReadThatFailsSaysWhyAndTheLinkStopsReading() {
        CrossMemoryAttach cma = CrossMemoryAttach.bind();
        List<String> log = new ArrayList<>();
        PeerMemoryReads reads = new PeerMemoryReads(new LazyCrossMemory(log::add), PID, 1, log::add);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment from = arena.allocate(4096);
            MemorySegment into = arena.allocate(4096);
            assertTrue(reads.copyFrom(from.address(), into));
            assertNotEquals(0, cma.read(PID, 8, into)); // nothing is mapped at address 8: EFAULT
            assertFalse(reads.copyFrom(8, into));
            assertFalse(reads.copyFrom(from.address(), into), "off for good after a refusal");
            assertEquals(1, log.size(), log.toString());
            assertTrue(log.get(0).contains("rank 1") && log.get(0).contains("errno"), log.get(0));
        }
    }

    /** Binding costs a fresh JVM ~35 ms of CPU (FFM spins its stubs): a job that never reads a peer never pays. */
    @Test
    void theSystemCallIsBoundAtTheFirstReadNotBefore() {
        LazyCrossMemory lazy = new LazyCrossMemory(line -> { });
        PeerMemoryReads reads = new PeerMemoryReads(lazy, PID, 1, line -> { });
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment from = arena.allocate(64);
            assertTrue(reads.offers(from));
            assertFalse(lazy.bound(), "offering binds nothing");
            from.fill((byte) 3);
            MemorySegment into = arena.allocate(64);
            assertTrue(reads.copyFrom(from.address(), into));
            assertTrue(lazy.bound());
            assertEquals(-1, into.mismatch(from));
        }
    }

    @Test
    void onlyNativeMemoryIsOfferedOrTaken() {
        PeerMemoryReads reads = new PeerMemoryReads(new LazyCrossMemory(line -> { }), PID, 1, line -> { });
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeData = arena.allocate(64);
            assertTrue(reads.offers(nativeData));
            assertFalse(reads.offers(MemorySegment.ofArray(new byte[64])));
            assertFalse(reads.offers(nativeData.asSlice(0, 0)));
            assertFalse(reads.copyFrom(nativeData.address(), MemorySegment.ofArray(new byte[64])));
        }
    }
}
