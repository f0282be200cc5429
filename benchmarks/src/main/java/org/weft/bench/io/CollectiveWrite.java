package org.weft.bench.io;

import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;

/**
 * A collective write of one large array through a strided view: the array is cut into blocks of {@code BLOCK} bytes
 * dealt round the ranks (rank r writes blocks r, r + size, r + 2 size… of the file), each rank holding its share in
 * an {@code int[]}. Times {@code writeAtAll} plus {@code sync} (so the bytes are on the device, as
 * {@code dd conv=fsync} has them) between two barriers, after one untimed write of the same to another file (the
 * warm-up), into a new file as dd writes one, and rank 0 prints
 * {@code collective-write MIB seconds MB/s CPU WRITE} (CPU: the seconds of CPU the ranks' processes spent in the
 * timed write, summed; WRITE: the seconds of the write before the sync, the slowest rank's). With
 * {@code independent} as the fourth argument, {@code write} instead of {@code writeAtAll} (one positional write per
 * block); with {@code KEY=VALUE,...} instead, those hints for the file (e.g. {@code romio_cb_write=enable}).
 *
 * <p>Usage: {@code weftrun -np N org.weft.bench.io.CollectiveWrite PATH MIB BLOCK [independent|HINTS]}
 */
public final class CollectiveWrite {
    private CollectiveWrite() {
    }

    /** Opens {@code path} anew (deleting what was there) with the rank's strided view. */
    private static File open(String path, int rank, int block, Datatype filetype, Info hints) throws MPIException {
        if (rank == 0) {
            new java.io.File(path).delete();
        }
        MPI.COMM_WORLD.barrier();
        File f = new File(MPI.COMM_WORLD, path, MPI.MODE_CREATE | MPI.MODE_WRONLY, hints);
        f.setView((long) rank * block, MPI.INT, filetype, "native");
        return f;
    }

    /**
     * Writes the rank's share and syncs; the file is closed afterwards. Returns the nanoseconds the write took
     * (before the sync).
     */
    private static long write(File f, int[] mine, boolean collective) throws MPIException {
        long start = System.nanoTime();
        if (collective) {
            f.writeAtAll(0, mine, mine.length, MPI.INT);
        } else {
            f.writeAt(0, mine, mine.length, MPI.INT);
        }
        long written = System.nanoTime() - start;
        f.sync();
        f.close();
        return written;
    }

    /** CPU time of this process (every thread: the device's too), which the load does not inflate as it does time. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long total = Long.parseLong(args[1]) << 20;
        int block = Integer.parseInt(args[2]);
        boolean collective = args.length < 4 || !args[3].equals("independent");
        Info hints = new Info();
        if (args.length >= 4 && args[3].contains("=")) {
            for (String hint : args[3].split(",")) {
                hints.set(hint.substring(0, hint.indexOf('=')), hint.substring(hint.indexOf('=') + 1));
            }
        }
        int ints = Math.toIntExact(total / size / 4);
        int[] mine = new int[ints];
        for (int i = 0; i < ints; i++) {
            mine[i] = rank + i;
        }
        Datatype filetype = Datatype.createResized(Datatype.createContiguous(block / 4, MPI.INT), 0, block * size);
        filetype.commit();
        String warmUp = args[0] + ".warm-up";
        // the warm-up: the JIT and the methods' first large messages
        write(open(warmUp, rank, block, filetype, hints), mine, collective);
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            File.delete(warmUp);
        }
        File f = open(args[0], rank, block, filetype, hints); // a new file, as dd writes one
        MPI.COMM_WORLD.barrier();
        long start = System.nanoTime();
        long cpuStart = processCpuNanos();
        double[] writing = {write(f, mine, collective) / 1e9};
        double[] cpu = {(processCpuNanos() - cpuStart) / 1e9};
        MPI.COMM_WORLD.barrier();
        double seconds = (System.nanoTime() - start) / 1e9;
        MPI.COMM_WORLD.allReduce(cpu, 1, MPI.DOUBLE, MPI.SUM);
        MPI.COMM_WORLD.allReduce(writing, 1, MPI.DOUBLE, MPI.MAX);
        if (rank == 0) {
            System.out.printf("%s-write %d %.3f %.0f %.3f %.3f%n", collective ? "collective" : "independent",
                    total >> 20, seconds, total / seconds / 1e6, cpu[0], writing[0]);
        }
        MPI.Finalize();
    }
}
