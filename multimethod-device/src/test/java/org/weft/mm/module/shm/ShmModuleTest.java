package org.weft.mm.module.shm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.adi.param.Parameter;
import org.weft.adi.param.Parameters;
import org.weft.mm.module.CommModuleConformanceTest;
import org.weft.mm.module.ModuleTestJob;
import org.weft.mm.module.RecordingSink;
import org.weft.mm.module.TestModuleContext;
import org.weft.mm.progress.DoorbellParker;
import org.weft.mm.progress.ParkTimer;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.SendStatus;

/** The module test kit run on {@code shm}, plus what only shared memory does: rings, padding, files, hosts. */
class ShmModuleTest extends CommModuleConformanceTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path base;

    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();

    @Override
    protected CommModule newModule(int rank) {
        return new ShmModule(log::add);
    }

    /** A fresh job directory per job, and rings large enough for the kit's 1 MiB RSRs. */
    @Override
    protected Map<String, String> parameters() {
        return Map.of("job_dir", newJobDir().toString(), "shm_ring_size", "2m");
    }

    private Path newJobDir() {
        try {
            return Files.createTempDirectory(base, "job");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ModuleTestJob startJob(int size, Map<String, String> extra) throws Exception {
        Map<String, String> all = new HashMap<>(Map.of("job_dir", newJobDir().toString()));
        all.putAll(extra);
        return ModuleTestJob.start(size, this::newModule, all);
    }

    @Test
    void aFullRingPushesBackTakingNothingAndLosesNothingOnceDrained() throws Exception {
        try (ModuleTestJob job = startJob(2, Map.of("shm_ring_size", "4k"))) {
            CommObject link = job.link(0, 1);
            byte[] payload = new byte[1000];
            int sent = 0;
            SendStatus status;
            while ((status = link.send(1, 1, seq(sent), MemorySegment.ofArray(payload))) == SendStatus.SENT) {
                sent++;
            }
            assertEquals(SendStatus.BACK_PRESSURED, status);
            assertEquals(3, sent, "4 KiB holds three records of 1012 bytes (1024 aligned) and the free slot after them");
            assertEquals(SendStatus.BACK_PRESSURED, link.send(1, 1, seq(sent), MemorySegment.ofArray(payload)),
                    "still full while nobody polls");

            for (int i = sent; i < 40; i++) {
                job.send(link, 1, 1, seq(i), MemorySegment.ofArray(payload)); // polls while pushed back
            }
            job.awaitDelivered(1, 40, WAIT);
            List<RecordingSink.Rsr> got = job.sink(1).received();
            for (int i = 0; i < 40; i++) {
                assertEquals(i, got.get(i).firstInt(), "RSR " + i + " lost or out of order");
                assertEquals(1004, got.get(i).body().length);
            }
        }
    }

    /**
     * The module's lock-free look at an empty ring counts as the reader seeing it drained: a record arriving after
     * it is delivered alone (its receiver may be waiting to answer), the ones behind it by the next poll.
     */
    @Test
    void aRecordArrivingAfterAnEmptyPollIsDeliveredAloneAndTheOnesBehindItNext() throws Exception {
        try (ModuleTestJob job = startJob(2, Map.of())) {
            CommObject link = job.link(0, 1);
            MemorySegment none = MemorySegment.ofArray(new byte[0]);
            assertEquals(SendStatus.SENT, link.send(1, 1, seq(0), none));
            assertEquals(1, job.module(1).poll());
            assertEquals(0, job.module(1).poll(), "an empty poll");
            for (int i = 1; i <= 3; i++) {
                assertEquals(SendStatus.SENT, link.send(1, 1, seq(i), none));
            }
            assertEquals(1, job.module(1).poll(), "the record that arrived first, alone");
            assertEquals(2, job.module(1).poll(), "the records behind it");
            List<RecordingSink.Rsr> got = job.sink(1).received();
            for (int i = 0; i <= 3; i++) {
                assertEquals(i, got.get(i).firstInt(), "RSR " + i);
            }
        }
    }

    /**
     * A sleeping owner raised its flag; a sender that publishes a record rings its bell, which ends the sleep. With
     * nothing sent the sleep lasts its period (the bell does not ring by itself).
     */
    @Test
    void aSendToASleepingRankRingsItsBell() throws Exception {
        try (ModuleTestJob job = startJob(2, Map.of());
             DoorbellParker parker = new DoorbellParker(List.of(job.module(1)))) {
            CommObject link = job.link(0, 1);
            assertTrue(job.module(1).doorbell().isArmed(), "a peer's ring to watch");
            long start = System.nanoTime();
            parker.park(300_000_000);
            long quiet = (System.nanoTime() - start) / 1_000_000;
            assertTrue(quiet >= 250, "a sleep nobody rang lasted " + quiet + " ms of 300");

            long slept = ParkTimer.millisParked(parker,
                    () -> job.send(link, 1, 1, seq(7), MemorySegment.ofArray(new byte[8])));
            assertTrue(slept >= 100 && slept < 5_000, "slept " + slept + " ms for a send after 200 ms");
            job.awaitDelivered(1, 1, WAIT);
            assertEquals(7, job.sink(1).received().getFirst().firstInt());
        }
    }

    @Test
    void aRecordThatWouldCrossTheEndOfTheRingIsPrecededByPadding() throws Exception {
        try (ModuleTestJob job = startJob(2, Map.of("shm_ring_size", "4k"))) {
            CommObject link = job.link(0, 1);
            // 3000 bytes, then 2000 bytes: the second does not fit the 1096 bytes left before the end.
            byte[] first = filled(3000 - 8, 1);
            byte[] second = filled(2000 - 8, 2);
            assertEquals(SendStatus.SENT, link.send(5, 6, ByteBuffer.allocate(0), MemorySegment.ofArray(first)));
            assertEquals(SendStatus.BACK_PRESSURED,
                    link.send(5, 7, ByteBuffer.allocate(0), MemorySegment.ofArray(second)),
                    "the start of the ring is still held by the first record");
            job.awaitDelivered(1, 1, WAIT);
            job.send(link, 5, 7, ByteBuffer.allocate(0), MemorySegment.ofArray(second));
            // A record as large as the ring allows, from the middle of the ring: padding, then a wait, then it fits.
            byte[] whole = filled((int) RingLayout.maxBody(4096), 3);
            job.send(link, 5, 8, ByteBuffer.allocate(0), MemorySegment.ofArray(whole));
            job.awaitDelivered(1, 3, WAIT);

            List<RecordingSink.Rsr> got = job.sink(1).received();
            assertEquals(List.of(6, 7, 8), got.stream().map(RecordingSink.Rsr::handler).toList(),
                    "padding records are never delivered");
            assertArrayEquals(first, got.get(0).body());
            assertArrayEquals(second, got.get(1).body());
            assertArrayEquals(whole, got.get(2).body());
        }
    }

    /**
     * Cross-memory attach is bound by the first large message a rank reads, not when shm starts: binding costs a
     * fresh JVM ~35 ms of CPU, which every rank of every job paid at {@code MPI_Init} before.
     */
    @Test
    void singleCopyIsBoundAtTheFirstReadNotAtStart() throws Exception {
        try (ModuleTestJob job = startJob(2, Map.of());
             Arena arena = Arena.ofConfined()) {
            ShmModule module = (ShmModule) job.module(0);
            CommObject link = job.link(0, 1);
            assertNotNull(link.singleCopy());
            assertFalse(module.crossMemoryBound(), "bound at start");
            MemorySegment data = arena.allocate(4096).fill((byte) 9);
            MemorySegment into = arena.allocate(4096);
            assertTrue(link.singleCopy().copyFrom(data.address(), into)); // the peer is this process
            assertTrue(module.crossMemoryBound());
            assertEquals(-1, into.mismatch(data));
        }
    }

    @Test
    void aRecordLargerThanTheRingIsRefusedAndMaxRsrLengthIsAQuarterRing() throws Exception {
        try (ModuleTestJob job = startJob(2, Map.of("shm_ring_size", "64k", "shm_eager_limit", "8k"))) {
            assertEquals(16 * 1024, job.module(0).maxRsrLength());
            assertEquals(8 * 1024, job.module(0).eagerLimit());
            CommObject link = job.link(0, 1);
            assertThrows(IllegalArgumentException.class,
                    () -> link.send(1, 1, ByteBuffer.allocate(0), MemorySegment.ofArray(new byte[64 * 1024])));
            assertThrows(IllegalArgumentException.class,
                    () -> link.send(0x10000, 1, ByteBuffer.allocate(0), MemorySegment.ofArray(new byte[0])));
            job.send(link, 0xFFFF, 0xFFFF, ByteBuffer.allocate(0), MemorySegment.ofArray(new byte[0]));
            job.awaitDelivered(1, 1, WAIT);
            assertEquals(0xFFFF, job.sink(1).received().getFirst().endpoint());
            assertEquals(0xFFFF, job.sink(1).received().getFirst().handler());
        }
    }

    @Test
    void aPeerOnAnotherHostOrBootOrJobOrSiteIsNotApplicable() throws Exception {
        try (ModuleTestJob job = startJob(2, Map.of())) {
            ShmAddress real = ShmAddress.of(job.descriptor(1));
            CommModule module = job.module(0);
            HostIdentity here = real.host();
            assertNull(module.connect(1, new ShmAddress(new HostIdentity("elsewhere", here.bootId()),
                    real.jobId(), real.site(), real.inbox()).toDescriptor()));
            assertNull(module.connect(1, new ShmAddress(new HostIdentity(here.hostName(), "another-boot-id"),
                    real.jobId(), real.site(), real.inbox()).toDescriptor()), "same name, other boot: another machine");
            assertNull(module.connect(1, new ShmAddress(here, "another-job", real.site(), real.inbox())
                    .toDescriptor()));
            assertNull(module.connect(1, new ShmAddress(here, real.jobId(), "another-site", real.inbox())
                    .toDescriptor()), "another site on the same machine crosses sites on a wide-area method");
            assertNull(module.connect(1, new org.weft.mm.spi.Descriptor("shm", new byte[] {1, 2, 3})));
            assertNotNull(module.connect(1, job.descriptor(1)));
        }
    }

    @Test
    void inboxesAreCreatedInTheJobDirectoryAndRemovedByShutdown() throws Exception {
        Path dir = newJobDir();
        ModuleTestJob job = ModuleTestJob.start(3, this::newModule, Map.of("job_dir", dir.toString()));
        try {
            assertEquals(Set.of("shm-0", "shm-1", "shm-2"), fileNames(dir));
            assertEquals(dir.resolve("shm-1").toAbsolutePath(), ((ShmModule) job.module(1)).inboxFile());
            job.send(job.link(2, 0), 1, 1, seq(1), MemorySegment.ofArray(new byte[10]));
            job.awaitDelivered(0, 1, WAIT);
        } finally {
            job.close();
        }
        assertEquals(Set.of(), fileNames(dir));
        assertEquals(SendStatus.FAILED, job.link(2, 0).send(1, 1, seq(2), MemorySegment.ofArray(new byte[0])),
                "a link of a shut-down module fails instead of touching unmapped memory");
        assertEquals(0, job.module(0).poll());
    }

    @Test
    void aJobDirectoryAlreadyHoldingAnInboxIsAnError() throws Exception {
        Path dir = newJobDir();
        Files.writeString(dir.resolve("shm-0"), "someone else's");
        ShmModule module = new ShmModule(log::add);
        var context = context(0, 2, Map.of("job_dir", dir.toString()));
        assertNull(module.unavailabilityCause(context));
        assertThrows(IOException.class, () -> module.init(context));
        assertEquals("someone else's", Files.readString(dir.resolve("shm-0")), "not overwritten");
    }

    @Test
    void unavailabilitySaysWhy() throws Exception {
        ShmModule module = new ShmModule(log::add);
        assertTrue(module.unavailabilityCause(context(0, 2, Map.of())).contains("job_dir"));
        assertTrue(module.unavailabilityCause(context(0, 2, Map.of("job_dir", base.resolve("none").toString())))
                .contains("does not exist"));
        assertTrue(module.unavailabilityCause(context(0, 1, Map.of("job_dir", base.toString())))
                .contains("one process"));
        assertTrue(module.unavailabilityCause(context(0, 2, Map.of("job_dir", base.toString(),
                "shm_ring_size", "3000"))).contains("shm_ring_size"));
        assertNull(module.unavailabilityCause(context(0, 2, Map.of("job_dir", base.toString()))));
    }

    @Test
    void anRsrTheSinkRejectsClosesOnlyThatSendersRing() throws Exception {
        try (ModuleTestJob job = startJob(3, Map.of())) {
            job.sink(0).rejectHandlers(handler -> handler == 666);
            CommObject bad = job.link(1, 0);
            CommObject good = job.link(2, 0);
            job.send(bad, 1, 1, seq(0), MemorySegment.ofArray(new byte[0]));
            job.send(bad, 1, 666, seq(1), MemorySegment.ofArray(new byte[0]));
            job.send(bad, 1, 1, seq(2), MemorySegment.ofArray(new byte[0])); // taken, never delivered
            job.awaitDelivered(0, 1, WAIT);
            while (bad.send(1, 1, seq(3), MemorySegment.ofArray(new byte[0])) != SendStatus.FAILED) {
                job.pollAll();
            }
            for (int i = 0; i < 50; i++) {
                job.send(good, 1, 1, seq(i), MemorySegment.ofArray(new byte[0]));
            }
            job.awaitDelivered(0, 51, WAIT);
            assertEquals(1, job.sink(0).received().stream().filter(r -> r.source() == 1).count());
            assertTrue(log.stream().anyMatch(l -> l.startsWith("weft shm (rank 0): closing the shm ring from rank 1")),
                    String.join("\n", log));
        }
    }

    @Test
    void everyParameterIsDeclaredOnceWithUnitAndDoc() {
        Set<String> names = new HashSet<>();
        for (Parameter<?> p : ShmParameters.ALL) {
            assertTrue(names.add(p.name()), "declared twice: " + p.name());
            assertTrue(!p.doc().isBlank(), p.name());
        }
        assertEquals(Set.of("job_dir", "shm_ring_size", "shm_eager_limit", "shm_max_per_poll", "shm_single_copy"),
                names);
        assertEquals("WEFT_JOB_DIR", ShmParameters.JOB_DIR.environmentName());
    }

    // --- helpers ---

    private TestModuleContext context(int rank, int size, Map<String, String> parameters) {
        return new TestModuleContext(rank, size, ModuleTestJob.JOB_ID, ModuleTestJob.SECRET, "localhost",
                new Parameters(parameters, Map.of()), new RecordingSink());
    }

    private static Set<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return new HashSet<>(files.map(p -> p.getFileName().toString()).toList());
        }
    }

    private static ByteBuffer seq(int n) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, n);
    }

    private static byte[] filled(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (seed * 31 + i * 7 + (i >>> 8));
        }
        return bytes;
    }
}
