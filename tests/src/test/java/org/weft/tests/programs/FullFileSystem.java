package org.weft.tests.programs;

import java.util.Arrays;

import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;

/**
 * A collective write into a file system too small for it ({@code FileFailureJobTest} mounts a tmpfs of 1088 KiB in
 * a mount namespace of the job's own): rank 0 first fills the file's first MiB, then each rank writes 1 MiB through
 * a view of 1 KiB blocks dealt round the ranks, by two-phase I/O through windows of 64 KiB. The file domains are of
 * 1 MiB, so rank 0's aggregator overwrites what is there and never fails, while the others run out of space after
 * at most a window: the failure is on some ranks only, in the middle of the exchange. {@code return DIR}: every
 * rank prints "rank R failed with CLASS", then the ranks go on: they empty the file, write and read back 16 KiB
 * collectively and print "rank R went on ok". {@code fatal DIR}: the file's handler is {@code ERRORS_ARE_FATAL},
 * so the job aborts with {@code ERR_NO_SPACE} as its exit code; "SURVIVED" would say it did not.
 */
public final class FullFileSystem {
    private static final int RUN = 1024;

    private FullFileSystem() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Info hints = new Info();
        hints.set("romio_cb_write", "enable");
        hints.set("romio_cb_read", "enable");
        hints.set("cb_buffer_size", "65536"); // many cycles: an aggregator fails while the others still exchange
        File f = new File(MPI.COMM_WORLD, args[1] + "/full", MPI.MODE_CREATE | MPI.MODE_RDWR, hints);
        byte[] mine = new byte[1 << 20];
        if (rank == 0) {
            f.writeAt(0, mine, mine.length, MPI.BYTE); // rank 0's file domain: its aggregator needs no more space
        }
        MPI.COMM_WORLD.barrier();
        if (args[0].equals("fatal")) {
            f.setErrhandler(MPI.ERRORS_ARE_FATAL);
        }
        Datatype filetype = Datatype.createResized(Datatype.createContiguous(RUN, MPI.BYTE), 0, size * RUN);
        filetype.commit();
        f.setView((long) rank * RUN, MPI.BYTE, filetype, "native");
        Arrays.fill(mine, (byte) (rank + 1));
        try {
            f.writeAtAll(0, mine, mine.length, MPI.BYTE);
            System.out.println("rank " + rank + " SURVIVED");
        } catch (MPIException e) {
            System.out.println("rank " + rank + " failed with " + e.getErrorClass() + ": " + e.getMessage());
        }
        f.setSize(0);
        byte[] some = Arrays.copyOf(mine, 16 << 10);
        f.writeAtAll(0, some, some.length, MPI.BYTE);
        byte[] back = new byte[some.length];
        f.readAtAll(0, back, back.length, MPI.BYTE);
        System.out.println("rank " + rank + " went on " + (Arrays.equals(some, back) ? "ok" : "WRONG"));
        f.close();
        filetype.free();
        MPI.Finalize();
    }
}
