package org.weft.bench.path;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import mpi.MPI;
import mpi.MPIException;

/**
 * Hand-offs of the core per collective call, a figure that other load on the machine does not swamp as it swamps wall
 * time: each rank's main thread's voluntary (parks) and involuntary (preemptions, yields that switched) context
 * switches per call of a 4-byte collective ({@code /proc/thread-self/status}), with its wall time and its CPU time per
 * call (what the ranks' waits cost the cores they share), over the second of two passes of {@code calls} calls. Usage:
 * {@code weftrun -np 4 ... CollectiveSwitches bcast|reduce|gather|scatter|allreduce|barrier [calls]} (default 20000);
 * prints one {@code SWITCHES} line per rank.
 */
public final class CollectiveSwitches {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private CollectiveSwitches() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        String collective = args.length > 0 ? args[0] : "bcast";
        int calls = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        ByteBuffer a = MPI.newByteBuffer(64);
        ByteBuffer b = MPI.newByteBuffer(64);
        for (int pass = 0; pass < 2; pass++) { // the first warms up
            MPI.COMM_WORLD.barrier();
            long[] before = switches();
            long cpu = THREADS.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                call(collective, a, b);
            }
            long micros = (System.nanoTime() - start) / 1000;
            double cpuMicros = (THREADS.getCurrentThreadCpuTime() - cpu) / 1000.0;
            long[] after = switches();
            MPI.COMM_WORLD.barrier();
            if (pass == 1) {
                System.out.printf("SWITCHES %s rank %d us/call %.2f cpu-us/call %.2f voluntary/call %.3f"
                                + " involuntary/call %.3f%n", collective, MPI.COMM_WORLD.getRank(),
                        micros / (double) calls, cpuMicros / calls,
                        (after[0] - before[0]) / (double) calls, (after[1] - before[1]) / (double) calls);
            }
        }
        MPI.Finalize();
    }

    private static void call(String collective, ByteBuffer a, ByteBuffer b) throws MPIException {
        switch (collective) {
            case "bcast" -> MPI.COMM_WORLD.bcast(a, 4, MPI.BYTE, 0);
            case "reduce" -> MPI.COMM_WORLD.reduce(a, b, 1, MPI.FLOAT, MPI.SUM, 0);
            case "gather" -> MPI.COMM_WORLD.gather(a, 1, MPI.BYTE, b, 1, MPI.BYTE, 0);
            case "scatter" -> MPI.COMM_WORLD.scatter(a, 1, MPI.BYTE, b, 1, MPI.BYTE, 0);
            case "allreduce" -> MPI.COMM_WORLD.allReduce(a, b, 1, MPI.FLOAT, MPI.SUM);
            case "barrier" -> MPI.COMM_WORLD.barrier();
            default -> throw new IllegalArgumentException("unknown collective " + collective);
        }
    }

    /** This thread's voluntary and involuntary context switches so far. */
    static long[] switches() throws java.io.IOException {
        long voluntary = 0;
        long involuntary = 0;
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                voluntary = Long.parseLong(line.split("\\s+")[1]);
            } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                involuntary = Long.parseLong(line.split("\\s+")[1]);
            }
        }
        return new long[] {voluntary, involuntary};
    }
}
