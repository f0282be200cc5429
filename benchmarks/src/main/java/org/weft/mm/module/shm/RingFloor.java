package org.weft.mm.module.shm;

import org.weft.bench.Results;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.function.Consumer;
import mpi.MPI;
import mpi.MPIException;
import org.weft.bench.SizeAndIterations;
import org.weft.mm.spi.RsrSink;

/**
 * What a 0-byte one-way costs below Weft's software, between the same two processes: a ping-pong of one 8-byte
 * word in one cache line per direction (the machine's floor), of one word in a fresh line per message (a ring's
 * floor: each message touches a line the other core last saw a lap ago), and of Weft's own shm ring
 * ({@link RingWriter}, {@link RingReader}) carrying the 40-byte envelope of a 0-byte MPI message. Set against
 * {@code weft bench latency} and Open MPI C in the same run, it tells the ring's share of a one-way from the rest
 * of the path; and the same ring with a payload ({@code -m}, default 1 KiB) copied in and out. MPI serves only to
 * meet (barriers, the file's name). In the shm package because the ring is package-private. Usage:
 * {@code weft bench ringfloor [-m payload] [-i iterations]}; rank 0 prints each one-way in µs, the median of 5
 * rounds, interleaved.
 */
public final class RingFloor {
    private static final int ROUNDS = 5;
    private static final long AREA = 1L << 20;
    private static final long RING = RingLayout.ringLength(AREA);
    private static final VarHandle WORD = ValueLayout.JAVA_LONG.varHandle();

    private RingFloor() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        SizeAndIterations options = SizeAndIterations.parse(args, 1024, 1_000_000);
        int iterations = options.iterations();
        int payload = options.maxBytes();
        int rank = MPI.COMM_WORLD.getRank();
        if (MPI.COMM_WORLD.getSize() != 2) {
            throw new IllegalStateException("ringfloor needs exactly 2 ranks");
        }
        Path file = sharedFile(rank);
        try (Arena arena = Arena.ofShared(); FileChannel channel = FileChannel.open(file, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MemorySegment all = channel.map(FileChannel.MapMode.READ_WRITE, 0, 2 * RING, arena);
            MPI.COMM_WORLD.barrier();
            if (rank == 0) {
                Files.delete(file); // both have it mapped
            }
            MemorySegment mine = all.asSlice(rank * RING, RING);
            MemorySegment theirs = all.asSlice((1 - rank) * RING, RING);
            double[][] micros = new double[4][ROUNDS];
            oneRound(rank, mine, theirs, iterations / 10, payload, new double[4][1], 0); // the JIT compiles it all
            for (int round = 0; round < ROUNDS; round++) {
                oneRound(rank, mine, theirs, iterations, payload, micros, round);
            }
            if (rank == 0) {
                System.out.printf("# Weft ringfloor: 0-byte one-way below the software, median of %d rounds%n", ROUNDS);
                System.out.printf("%-12s %8.3f us  one word, one line per direction%n", "line", median(micros[0]));
                System.out.printf("%-12s %8.3f us  one word per message, a fresh line each%n", "fresh-line",
                        median(micros[1]));
                System.out.printf("%-12s %8.3f us  Weft's shm ring, a 0-byte message's envelope%n", "ring",
                        median(micros[2]));
                System.out.printf("%-12s %8.3f us  the same with %d bytes of payload, copied in and out%n",
                        "ring-" + payload, median(micros[3]), payload);
                Results results = Results.table("ringfloor: one-way below the software, median of " + ROUNDS
                        + " rounds", "Case", "One-way (us)");
                String[] cases = {"line", "fresh-line", "ring", "ring-" + payload};
                for (int c = 0; c < cases.length; c++) {
                    results.row(cases[c], median(micros[c]));
                }
            }
        }
        MPI.Finalize();
    }

    /** Rank 0 makes the file (two rings' worth, sparse) and tells rank 1 its name. */
    private static Path sharedFile(int rank) throws MPIException, IOException {
        byte[] name = new byte[256];
        if (rank == 0) {
            Path file = Files.createTempFile(Path.of("/dev/shm"), "weft-ringfloor-", "");
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.allocate(1), 2 * RING - 1);
            }
            byte[] path = file.toString().getBytes(StandardCharsets.UTF_8);
            System.arraycopy(path, 0, name, 0, path.length);
        }
        MPI.COMM_WORLD.bcast(name, name.length, MPI.BYTE, 0);
        int length = 0;
        while (length < name.length && name[length] != 0) {
            length++;
        }
        return Path.of(new String(name, 0, length, StandardCharsets.UTF_8));
    }

    private static void oneRound(int rank, MemorySegment mine, MemorySegment theirs, int iterations, int payload,
                                 double[][] micros, int round) throws MPIException {
        MPI.COMM_WORLD.barrier();
        micros[0][round] = line(rank == 0, mine, theirs, iterations);
        MPI.COMM_WORLD.barrier();
        micros[1][round] = freshLine(rank == 0, mine, theirs, iterations);
        MPI.COMM_WORLD.barrier(); // the other may still wait for this side's last word
        mine.fill((byte) 0); // the fresh lines count from 1 again; the rings start empty
        MPI.COMM_WORLD.barrier();
        micros[2][round] = ring(rank, mine, theirs, iterations, 0);
        MPI.COMM_WORLD.barrier();
        mine.fill((byte) 0);
        MPI.COMM_WORLD.barrier();
        micros[3][round] = ring(rank, mine, theirs, iterations, payload);
        MPI.COMM_WORLD.barrier();
    }

    /** Each side writes its own word; both words keep their lines. Returns the one-way in µs. */
    private static double line(boolean first, MemorySegment mine, MemorySegment theirs, int iterations) {
        long base = (long) WORD.getAcquire(mine, 0L);
        long start = System.nanoTime();
        for (long i = base + 1; i <= base + iterations; i++) {
            if (first) {
                WORD.setRelease(mine, 0L, i);
                awaitWord(theirs, 0L, i);
            } else {
                awaitWord(theirs, 0L, i);
                WORD.setRelease(mine, 0L, i);
            }
        }
        return (System.nanoTime() - start) / 2e3 / iterations;
    }

    /** Message i is word i at line i of a 1 MiB area: a fresh line per message, as in a ring. */
    private static double freshLine(boolean first, MemorySegment mine, MemorySegment theirs, int iterations) {
        long mask = AREA - 1;
        long start = System.nanoTime();
        for (long i = 1; i <= iterations; i++) {
            long at = (i * 64) & mask;
            if (first) {
                WORD.setRelease(mine, at, i);
                awaitWord(theirs, at, i);
            } else {
                awaitWord(theirs, at, i);
                WORD.setRelease(mine, at, i);
            }
        }
        return (System.nanoTime() - start) / 2e3 / iterations;
    }

    /** Spins without a pause instruction, as Weft's waiting loop does (a pause delays seeing the arrival). */
    private static void awaitWord(MemorySegment segment, long offset, long value) {
        while ((long) WORD.getAcquire(segment, offset) != value) {
            // spin
        }
    }

    /**
     * Rank 0 writes into {@code mine} (its ring), reads {@code theirs}; rank 1 the other way round. A payload is
     * copied from a buffer into the ring and out of it into another, as a message's is.
     */
    private static double ring(int rank, MemorySegment mine, MemorySegment theirs, int iterations, int payload) {
        RingWriter out = new RingWriter(mine, AREA);
        RingReader in = new RingReader(1 - rank, theirs, AREA);
        ByteBuffer envelope = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN); // MessageHeader.LENGTH
        MemorySegment data = MemorySegment.ofBuffer(ByteBuffer.allocateDirect(Math.max(payload, 1)))
                .asSlice(0, payload);
        MemorySegment received = MemorySegment.ofBuffer(ByteBuffer.allocateDirect(Math.max(payload, 1)));
        RsrSink sink = (source, endpoint, handler, body) -> {
            if (payload > 0) {
                MemorySegment.copy(MemorySegment.ofBuffer(body), 40, received, 0, payload);
            }
        };
        Consumer<String> log = System.err::println;
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            if (rank == 0) {
                out.offer(0, 0, envelope, data);
            }
            while (in.poll(1, sink, log) == 0) {
                // spin
            }
            if (rank == 1) {
                out.offer(0, 0, envelope, data);
            }
        }
        return (System.nanoTime() - start) / 2e3 / iterations;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
