package org.weft.mm.module.nativempi;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.weft.adi.param.Parameters;
import org.weft.mm.module.TestModuleContext;
import org.weft.mm.spi.BulkTransfer;
import org.weft.mm.spi.CommObject;
import org.weft.mm.spi.Descriptor;
import org.weft.mm.spi.SendStatus;

/**
 * One process of a two-process native job ({@code mpirun -np 2 java --enable-native-access=ALL-UNNAMED ... this
 * check|bench}): starts the {@code nativempi} module outside any Weft device, reaches the other process through the
 * descriptor of its native rank (Weft rank = native rank here), and either checks RSRs of 0 B to 1 MiB, a burst
 * of small ones and a cancelled bulk receive ({@code check}) or times a ping-pong ({@code bench [rounds]}). Prints {@code rank R OK} and exits 0
 * when all went well; any failure exits non-zero with the reason.
 */
public final class NativeMpiProbeMain {
    private static final int[] SIZES = {0, 1, 7, 8, 100, 1000, 4096, 65_536, 65_537, 300_000, 1 << 20};
    private static final int BURST = 20_000;
    /** Above the default nativempi_blocking_send_limit (4 KiB): these go through the send slots. */
    private static final int LARGE_IN_BURST = 5000;
    private static final long WAIT_NANOS = 60_000_000_000L;
    /** Empty polls in a row before a waiting rank yields its core (as the device's idle strategy does). */
    private static final int IDLE_POLLS_BEFORE_YIELDING = 1000;

    private final NativeMpiModule module;
    private final ProbeSink sink;
    private final CommObject peer;
    private final int rank;

    private NativeMpiProbeMain(NativeMpiModule module, ProbeSink sink, CommObject peer, int rank) {
        this.module = module;
        this.sink = sink;
        this.peer = peer;
        this.rank = rank;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> env = System.getenv();
        int rank = Integer.parseInt(env.getOrDefault("OMPI_COMM_WORLD_RANK", env.getOrDefault("PMI_RANK", "0")));
        ProbeSink sink = new ProbeSink();
        NativeMpiModule module = new NativeMpiModule();
        // Few send slots, so the burst meets back-pressure.
        var context = new TestModuleContext(rank, 2, "probe", "secret", "localhost",
                new Parameters(Map.of(NativeMpiParameters.SEND_SLOTS.name(), "8",
                        NativeMpiParameters.MAX_RSR.name(), "2m"), env), sink); // 1 MiB RSRs fit one message
        String cause = module.unavailabilityCause(context);
        if (cause != null) {
            System.out.println("rank " + rank + " unavailable: " + cause);
            System.exit(3);
        }
        module.init(context);
        int other = 1 - module.nativeRank();
        Descriptor foreign = new NativeAddress("another-session", other).toDescriptor();
        require(module.connect(other, foreign) == null, "a descriptor of another session must not apply");
        NativeMpiProbeMain probe = new NativeMpiProbeMain(module, sink, module.connect(other,
                module.descriptorOfNativeRank(other)), rank);
        if (args.length > 0 && args[0].equals("bench")) {
            probe.bench(args.length > 1 ? Integer.parseInt(args[1]) : 3);
        } else {
            probe.checkSizes();
            probe.checkBurst();
            probe.checkCancelledBulkReceive();
        }
        System.out.println("rank " + rank + " OK: " + module.describe());
        module.shutdown();
    }

    /** Rank 0 sends each size, rank 1 checks it and sends it back, rank 0 checks the echo. */
    private void checkSizes() {
        byte[] data = new byte[1 << 20];
        for (int size : SIZES) {
            if (rank == 0) {
                fill(data, size);
                send(7, ByteBuffer.allocate(0), MemorySegment.ofArray(data).asSlice(0, size));
                awaitCount(sink.count() + 1);
                checkBody(size);
            } else {
                awaitCount(sink.count() + 1);
                checkBody(size);
                send(7, ByteBuffer.allocate(0), MemorySegment.ofArray(sink.last()).asSlice(0, sink.lastLength()));
            }
        }
    }

    /**
     * Rank 0 sends a burst of RSRs back-to-back, small ones (MPI_Send) and ones above the blocking-send limit
     * (MPI_Isend from a slot) in turn; rank 1 checks their order and answers once.
     */
    private void checkBurst() {
        ByteBuffer header = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        MemorySegment small = MemorySegment.ofArray(new byte[60]);
        MemorySegment large = MemorySegment.ofArray(new byte[LARGE_IN_BURST]);
        long start = sink.count();
        if (rank == 0) {
            int pushedBack = 0;
            for (int seq = 0; seq < BURST; seq++) {
                header.clear().putInt(0, seq);
                pushedBack += send(ProbeSink.SEQUENCED, header, seq % 2 == 0 ? small : large);
            }
            awaitCount(start + 1);
            require(sink.lastHandler() == 10, "the burst's answer");
            System.out.println("rank 0: burst of " + BURST + " sent, back-pressured " + pushedBack + " times");
        } else {
            awaitCount(start + BURST);
            require(sink.sequenced() == BURST && sink.lastLength() == 4 + LARGE_IN_BURST, "burst: " + sink.sequenced() + " RSRs, "
                    + "the last of " + sink.lastLength() + " bytes");
            send(10, ByteBuffer.allocate(0), MemorySegment.ofArray(new byte[0]));
        }
    }

    /**
     * A bulk receive given up leaves no receive posted in libmpi: rank 0 starts receiving transfer 99 into one
     * buffer and cancels it (as when its CTS cannot go), then receives transfer 99 into another and tells rank 1 to
     * send it. A receive left posted would take the data (MPI matches receives in posting order).
     */
    private void checkCancelledBulkReceive() {
        BulkTransfer bulk = peer.bulk();
        require(bulk != null, "nativempi should offer bulk transfers");
        int bytes = 1 << 20;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(bytes, 64);
            MemorySegment expected = arena.allocate(bytes, 64);
            for (int i = 0; i < bytes; i++) {
                expected.set(JAVA_BYTE, i, pattern(bytes, i));
            }
            Outcome transfer = new Outcome();
            if (rank == 0) {
                MemorySegment abandoned = arena.allocate(bytes, 64);
                Outcome cancelled = new Outcome();
                bulk.receive(99, abandoned, cancelled);
                bulk.cancelReceive(99);
                require(cancelled.failed == 1 && cancelled.done == 0, "the cancelled receive's listener: "
                        + cancelled.done + " done, " + cancelled.failed + " failed");
                bulk.receive(99, data, transfer);
                send(10, ByteBuffer.allocate(0), MemorySegment.ofArray(new byte[0])); // now rank 1 may send
                await(() -> transfer.done + transfer.failed > 0, "the bulk receive");
                require(transfer.done == 1, "the bulk receive after the cancelled one failed");
                require(data.mismatch(expected) == -1, "bulk byte " + data.mismatch(expected) + " differs");
                require(abandoned.mismatch(arena.allocate(bytes)) == -1, "the cancelled receive got data");
                bulk.cancelReceive(99); // ended: nothing happens
                require(transfer.failed == 0, "cancelling an ended transfer told its listener");
            } else {
                awaitCount(sink.count() + 1);
                bulk.send(99, expected, transfer);
                await(() -> transfer.done + transfer.failed > 0, "the bulk send");
                require(transfer.done == 1, "the bulk send failed");
            }
        }
    }

    /** What a bulk transfer's listener heard. */
    private static final class Outcome implements BulkTransfer.Listener {
        int done;
        int failed;

        @Override
        public void done() {
            done++;
        }

        @Override
        public void failed(String why) {
            failed++;
        }
    }

    /** Ping-pong of 0 B and 1 MiB, {@code rounds} times; rank 0 prints one-way latency and bandwidth. */
    private void bench(int rounds) {
        sink.copying(false);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(1 << 20, 64);
            int[][] plan = {{0, 200_000}, {1 << 20, 300}};
            for (int round = 0; round < rounds; round++) {
                for (int[] step : plan) {
                    MemorySegment payload = buffer.asSlice(0, step[0]);
                    pingPong(payload, step[1] / 10); // warm-up
                    long t0 = System.nanoTime();
                    pingPong(payload, step[1]);
                    double oneWayUs = (System.nanoTime() - t0) / 1e3 / step[1] / 2;
                    if (rank == 0) {
                        System.out.printf("round %d size %d one-way %.3f us %.1f MB/s%n", round, step[0], oneWayUs,
                                step[0] / oneWayUs);
                    }
                }
            }
        }
    }

    private void pingPong(MemorySegment payload, int iterations) {
        ByteBuffer header = ByteBuffer.allocate(0);
        for (int i = 0; i < iterations; i++) {
            if (rank == 0) {
                send(1, header, payload);
                awaitCount(sink.count() + 1);
            } else {
                awaitCount(sink.count() + 1);
                send(1, header, payload);
            }
        }
    }

    /** Sends, polling while back-pressured; returns how many times it was pushed back. */
    private int send(int handler, ByteBuffer header, MemorySegment payload) {
        int pushedBack = 0;
        long deadline = System.nanoTime() + WAIT_NANOS;
        SendStatus status;
        while ((status = peer.send(3, handler, header, payload)) == SendStatus.BACK_PRESSURED) {
            pushedBack++;
            require(System.nanoTime() < deadline, "still back-pressured after 60 s");
            if (module.poll() == 0) {
                Thread.yield();
            }
        }
        require(status == SendStatus.SENT, "send failed: " + status);
        return pushedBack;
    }

    private void awaitCount(long count) {
        if (!await(() -> sink.count() >= count)) {
            fail("RSR " + count);
        }
    }

    private void await(BooleanSupplier done, String what) {
        if (!await(done)) {
            fail(what);
        }
    }

    /**
     * Polls the module until {@code done}; false after 60 s. The caller names what it waited for only then: the
     * bench's ping-pong waits through here every round trip.
     */
    private boolean await(BooleanSupplier done) {
        long deadline = System.nanoTime() + WAIT_NANOS;
        int idle = 0;
        while (!done.getAsBoolean()) {
            if (module.poll() > 0) {
                idle = 0;
            } else if (++idle > IDLE_POLLS_BEFORE_YIELDING) {
                Thread.yield(); // two cores, two ranks, other jobs: never starve the peer
                if (System.nanoTime() >= deadline) {
                    return false;
                }
            }
        }
        return true;
    }

    private void fail(String what) {
        throw new IllegalStateException("rank " + rank + " waited 60 s for " + what);
    }

    private void checkBody(int size) {
        require(sink.lastLength() == size, "expected " + size + " bytes, got " + sink.lastLength());
        require(sink.lastSource() == 1 - rank, "source " + sink.lastSource());
        byte[] body = sink.last();
        for (int i = 0; i < size; i++) {
            if (body[i] != pattern(size, i)) {
                throw new IllegalStateException("size " + size + ": byte " + i + " differs");
            }
        }
    }

    private static void fill(byte[] data, int size) {
        for (int i = 0; i < size; i++) {
            data[i] = pattern(size, i);
        }
    }

    private static byte pattern(int size, int i) {
        return (byte) (size * 31 + i * 7 + (i >>> 9));
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException(what);
        }
    }
}
