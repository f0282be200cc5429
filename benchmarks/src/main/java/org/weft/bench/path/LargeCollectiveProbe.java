package org.weft.bench.path;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;

import mpi.MPI;
import mpi.MPIException;

/**
 * Where a large collective's time goes, per rank: wall and CPU time per call of one collective at one size, over
 * {@code rounds} rounds of {@code calls} calls, the first round a warm-up; direct buffers, sizes and types as the
 * OSU-style benchmarks' (reductions float SUM; reduce_scatter_block and alltoall blocks of BYTES per rank). A call
 * whose CPU time is near its wall time moves bytes; one whose wall time is many times its CPU time waits. Usage:
 * {@code weftrun -np N ... LargeCollectiveProbe COLL BYTES [calls] [rounds]} with COLL one of allreduce, reduce,
 * reduce_scatter_block, bcast, gather, scatter, allgather, alltoall, or {@code send} (what a bcast over a slot did
 * by point-to-point: rank 0 sends BYTES to every other rank in turn); prints one {@code PROBE} line per rank and
 * round.
 */
public final class LargeCollectiveProbe {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private LargeCollectiveProbe() {
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        String collective = args[0];
        int bytes = Integer.parseInt(args[1]);
        int calls = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 4;
        int n = MPI.COMM_WORLD.getSize();
        ByteBuffer a = MPI.newByteBuffer(bytes * n);
        ByteBuffer b = MPI.newByteBuffer(bytes * n);
        for (int round = 0; round <= rounds; round++) { // round 0 warms up
            MPI.COMM_WORLD.barrier();
            long cpu = THREADS.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                call(collective, a, b, bytes, n);
            }
            double micros = (System.nanoTime() - start) / 1000.0;
            double cpuMicros = (THREADS.getCurrentThreadCpuTime() - cpu) / 1000.0;
            MPI.COMM_WORLD.barrier();
            if (round > 0) {
                System.out.printf("PROBE %s %d B rank %d round %d us/call %.1f cpu-us/call %.1f%n", collective,
                        bytes, MPI.COMM_WORLD.getRank(), round, micros / calls, cpuMicros / calls);
            }
        }
        MPI.Finalize();
    }

    private static void call(String collective, ByteBuffer a, ByteBuffer b, int bytes, int n) throws MPIException {
        int floats = bytes / Float.BYTES;
        switch (collective) {
            case "allreduce" -> MPI.COMM_WORLD.allReduce(a, b, floats, MPI.FLOAT, MPI.SUM);
            case "reduce" -> MPI.COMM_WORLD.reduce(a, b, floats, MPI.FLOAT, MPI.SUM, 0);
            case "reduce_scatter_block" -> MPI.COMM_WORLD.reduceScatterBlock(a, b, floats, MPI.FLOAT, MPI.SUM);
            case "bcast" -> MPI.COMM_WORLD.bcast(a, bytes, MPI.BYTE, 0);
            case "gather" -> MPI.COMM_WORLD.gather(a, bytes, MPI.BYTE, b, bytes, MPI.BYTE, 0);
            case "scatter" -> MPI.COMM_WORLD.scatter(a, bytes, MPI.BYTE, b, bytes, MPI.BYTE, 0);
            case "allgather" -> MPI.COMM_WORLD.allGather(a, bytes, MPI.BYTE, b, bytes, MPI.BYTE);
            case "alltoall" -> MPI.COMM_WORLD.allToAll(a, bytes, MPI.BYTE, b, bytes, MPI.BYTE);
            case "send" -> sendFromRoot(a, bytes, n);
            default -> throw new IllegalArgumentException("unknown collective " + collective);
        }
    }

    /** What a bcast over a slot does by point-to-point alone: rank 0 sends the bytes to each other rank in turn. */
    private static void sendFromRoot(ByteBuffer a, int bytes, int n) throws MPIException {
        if (MPI.COMM_WORLD.getRank() != 0) {
            MPI.COMM_WORLD.recv(a, bytes, MPI.BYTE, 0, 1);
            return;
        }
        for (int r = 1; r < n; r++) {
            MPI.COMM_WORLD.send(a, bytes, MPI.BYTE, r, 1);
        }
    }
}
