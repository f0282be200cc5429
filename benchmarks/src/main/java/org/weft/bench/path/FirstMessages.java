package org.weft.bench.path;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * A fresh job's first messages, one by one (issue 20, item 13): rank 0 times each of its first {@code -n} blocking
 * round trips of {@code -m} bytes (default 2000 of 0 B) with rank 1, right after {@code MPI_Init}, and prints per
 * window of {@code -w} round trips (default 100) the median and mean one-way time and rank 0's main thread's CPU
 * time per round trip, then how long {@code MPI_Init} took (wall and the process's CPU since the JVM started). With
 * {@code -self 1} rank 0 sends to itself instead ({@code iRecv}, {@code send}, {@code waitFor}) and rank 1 only
 * waits: its CPU per message is then the software path's alone, which the machine's load inflates far less than a
 * ping-pong's wall time. The methods are weftrun's choice ({@code --methods self,shm} or {@code --methods self,tcp}).
 * Usage: {@code weft bench first [-m bytes] [-n round trips] [-w window] [-self 1]}.
 */
public final class FirstMessages {
    private static final int TAG = 3;
    private static final Path PROCESS_STAT = Path.of("/proc/self/stat");

    private FirstMessages() {
    }

    public static void main(String[] args) throws MPIException, IOException {
        long initStart = System.nanoTime();
        MPI.Init(args);
        long initNanos = System.nanoTime() - initStart;
        double processCpuAfterInit = processCpuSeconds();
        int bytes = option(args, "-m", 0);
        int count = option(args, "-n", 2000);
        int window = option(args, "-w", 100);
        ByteBuffer buffer = MPI.newByteBuffer(Math.max(bytes, 1));
        if (MPI.COMM_WORLD.getSize() != 2) {
            throw new IllegalArgumentException("a ping-pong of 2 ranks, not " + MPI.COMM_WORLD.getSize());
        }
        int rank = MPI.COMM_WORLD.getRank();
        boolean self = option(args, "-self", 0) == 1;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[] nanos = new long[count];
        long[] cpu = new long[count / window + 1];
        MPI.COMM_WORLD.barrier();
        cpu[0] = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < count && (rank == 0 || !self); i++) {
            long start = System.nanoTime();
            if (self) {
                Request receive = MPI.COMM_WORLD.iRecv(buffer, bytes, MPI.BYTE, 0, TAG);
                MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, 0, TAG);
                receive.waitFor();
            } else if (rank == 0) {
                MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, 1, TAG);
                MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, 1, TAG);
            } else {
                MPI.COMM_WORLD.recv(buffer, bytes, MPI.BYTE, 0, TAG);
                MPI.COMM_WORLD.send(buffer, bytes, MPI.BYTE, 0, TAG);
            }
            nanos[i] = System.nanoTime() - start;
            if ((i + 1) % window == 0) {
                cpu[(i + 1) / window] = threads.getCurrentThreadCpuTime();
            }
        }
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            report(bytes, nanos, cpu, window, self ? 1 : 2);
            System.out.printf("init %d B wall %.3f s process-cpu %.3f s%n", bytes, initNanos / 1e9,
                    processCpuAfterInit);
        }
        MPI.Finalize();
    }

    private static void report(int bytes, long[] nanos, long[] cpu, int window, int hops) {
        for (int w = 0; (w + 1) * window <= nanos.length; w++) {
            long[] part = Arrays.copyOfRange(nanos, w * window, (w + 1) * window);
            Arrays.sort(part);
            double mean = Arrays.stream(part).average().orElse(0);
            System.out.printf("first %d B window %d messages %d-%d median-one-way-us %.3f mean-one-way-us %.3f"
                            + " cpu-us-per-round-trip %.3f%n", bytes, w + 1, w * window + 1, (w + 1) * window,
                    part[window / 2] / 1e3 / hops, mean / 1e3 / hops, (cpu[w + 1] - cpu[w]) / 1e3 / window);
        }
    }

    /** The process's user + system time since it started, s (fields 14 and 15 of stat, in clock ticks of 10 ms). */
    private static double processCpuSeconds() throws IOException {
        String stat = Files.readString(PROCESS_STAT);
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
    }

    private static int option(String[] args, String name, int defaultValue) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return Integer.parseInt(args[i + 1]);
            }
        }
        return defaultValue;
    }
}
