package org.weft.bench.path;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;

/**
 * What a nativempi one-way costs below Weft: libmpi called through FFM as the {@code nativempi} module calls it —
 * {@code MPI_Send} from native memory, a ring of 16 pre-posted {@code MPI_Irecv}s of 256 KiB tested with a spin on
 * {@code MPI_Test} (critical downcalls, raw addresses, constant method handles) — with no Weft at all. Set against
 * Weft's latency over nativempi and the C ping-pong in the same run, it tells FFM's share from Weft's. Messages of 0
 * bytes and of 48 (the RSR that carries a 0-byte Weft message: prefix and envelope). Open MPI only (its handles are
 * symbols; under MPICH 4.0 this loop hung in its second size, not investigated). Usage: {@code mpirun -np 2
 * --bind-to none java --enable-native-access=ALL-UNNAMED -cp benchmarks/target/classes
 * org.weft.bench.path.FfmFloor [iterations]} ({@code -Dsizes=0,16,32} for other message sizes); rank 0 prints
 * each one-way in µs, the median of 5 rounds.
 */
public final class FfmFloor {
    private static final int ROUNDS = 5;
    /** Message sizes, {@code -Dsizes=0,16,...} (default 0 and 48). */
    private static final int[] SIZES = Arrays.stream(System.getProperty("sizes", "0,48").split(","))
            .mapToInt(Integer::parseInt).toArray();
    private static final int SLOTS = 16;
    private static final int SLOT_BYTES = 256 * 1024;
    private static final int TAG = 7;
    private static final int ANY_SOURCE = -1;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBMPI = SymbolLookup.libraryLookup("libmpi.so.40", Arena.global());
    /** Open MPI's handles are pointers. */
    private static final ValueLayout HANDLE = JAVA_LONG;
    private static final MethodHandle INIT = bind("MPI_Init", false, JAVA_LONG, JAVA_LONG);
    private static final MethodHandle FINALIZE = bind("MPI_Finalize", false);
    private static final MethodHandle RANK = bind("MPI_Comm_rank", false, HANDLE, JAVA_LONG);
    private static final MethodHandle BARRIER = bind("MPI_Barrier", false, HANDLE);
    private static final MethodHandle SEND = bind("MPI_Send", false, JAVA_LONG, JAVA_INT, HANDLE, JAVA_INT, JAVA_INT,
            HANDLE);
    private static final MethodHandle IRECV = bind("MPI_Irecv", true, JAVA_LONG, JAVA_INT, HANDLE, JAVA_INT, JAVA_INT,
            HANDLE, JAVA_LONG);
    private static final MethodHandle TEST = bind("MPI_Test", true, JAVA_LONG, JAVA_LONG, JAVA_LONG);
    private static final MethodHandle CANCEL = bind("MPI_Cancel", false, JAVA_LONG);
    private static final MethodHandle WAIT = bind("MPI_Wait", false, JAVA_LONG, JAVA_LONG);

    private FfmFloor() {
    }

    public static void main(String[] args) throws Throwable {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 300_000;
        check((int) INIT.invokeExact(0L, 0L));
        long world = LIBMPI.find("ompi_mpi_comm_world").orElseThrow().address();
        long bytes = LIBMPI.find("ompi_mpi_byte").orElseThrow().address();
        Arena arena = Arena.global();
        MemorySegment rankCell = arena.allocate(JAVA_INT);
        check((int) RANK.invokeExact(world, rankCell.address()));
        int rank = rankCell.get(JAVA_INT, 0);
        Exchange exchange = new Exchange(arena, rank, world, bytes);
        for (int size : SIZES) {
            double[] oneWay = new double[ROUNDS];
            exchange.pingPong(size, iterations / 10); // the JIT compiles the loop first
            for (int round = 0; round < ROUNDS; round++) {
                check((int) BARRIER.invokeExact(world));
                long start = System.nanoTime();
                exchange.pingPong(size, iterations);
                oneWay[round] = (System.nanoTime() - start) / 1e3 / iterations / 2;
            }
            Arrays.sort(oneWay);
            if (rank == 0) {
                System.out.printf("FFM floor %d B one-way %.3f us (rounds %.3f-%.3f)%n", size, oneWay[ROUNDS / 2],
                        oneWay[0], oneWay[ROUNDS - 1]);
            }
        }
        exchange.cancelPosted(); // a communicator keeps no receive posted into MPI_Finalize
        check((int) FINALIZE.invokeExact());
    }

    /** The two ranks' ping-pong over a ring of pre-posted receives, re-posted at the start of the next wait. */
    private static final class Exchange {
        private final int peer;
        private final boolean first;
        private final long world;
        private final long bytes;
        private final long send;
        private final long slots;
        private final long requests;
        private final long flag;
        private final MemorySegment flagCell;
        private final long status;
        private int head;
        private int unposted = -1;

        Exchange(Arena arena, int rank, long world, long bytes) throws Throwable {
            this.peer = 1 - rank;
            this.first = rank == 0;
            this.world = world;
            this.bytes = bytes;
            this.send = arena.allocate(64, 64).address();
            this.slots = arena.allocate((long) SLOTS * SLOT_BYTES, 64).address();
            this.requests = arena.allocate(8L * SLOTS, 8).address();
            this.flagCell = arena.allocate(JAVA_INT);
            this.flag = flagCell.address();
            this.status = arena.allocate(64, 8).address();
            for (int slot = 0; slot < SLOTS; slot++) {
                post(slot);
            }
        }

        void pingPong(int size, int iterations) throws Throwable {
            for (int i = 0; i < iterations; i++) {
                if (first) {
                    send(size);
                    receive();
                } else {
                    receive();
                    send(size);
                }
            }
        }

        private void send(int size) throws Throwable {
            check((int) SEND.invokeExact(send, size, bytes, peer, TAG, world));
        }

        private void receive() throws Throwable {
            if (unposted >= 0) {
                post(unposted);
            }
            do {
                check((int) TEST.invokeExact(requests + 8L * head, flag, status));
            } while (flagCell.get(JAVA_INT, 0) == 0);
            unposted = head;
            head = head + 1 == SLOTS ? 0 : head + 1;
        }

        void cancelPosted() throws Throwable {
            for (int slot = 0; slot < SLOTS; slot++) {
                if (slot != unposted) {
                    check((int) CANCEL.invokeExact(requests + 8L * slot));
                    check((int) WAIT.invokeExact(requests + 8L * slot, status));
                }
            }
        }

        private void post(int slot) throws Throwable {
            long buffer = slots + (long) slot * SLOT_BYTES;
            long request = requests + 8L * slot;
            check((int) IRECV.invokeExact(buffer, SLOT_BYTES, bytes, ANY_SOURCE, TAG, world, request));
        }
    }

    private static MethodHandle bind(String function, boolean critical, MemoryLayout... arguments) {
        Linker.Option[] options = critical ? new Linker.Option[] {Linker.Option.critical(false)} : new Linker.Option[0];
        return LINKER.downcallHandle(LIBMPI.find(function).orElseThrow(), FunctionDescriptor.of(JAVA_INT, arguments),
                options);
    }

    private static void check(int rc) {
        if (rc != 0) {
            throw new IllegalStateException("MPI call failed: " + rc);
        }
    }
}
