package org.weft.tests.programs;

import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Twin of {@code tests/src/test/c/strided_file.c}: blocks of 3 ints dealt round the ranks (rank r's view: a block
 * every {@code size * 3} ints, from int {@code r * 3}), 4 blocks per rank, each int its global index.
 * {@code write PATH} writes them with {@code writeAll} (two-phase I/O, through windows of 20 bytes so that it
 * cycles); {@code read PATH} reads them with {@code read} and prints "rank R read ok" if every int is right;
 * {@code fatal PATH} writes to the file opened read-only under {@code ERRORS_ARE_FATAL}, which aborts the job with
 * {@code ERR_READ_ONLY}.
 */
public final class StridedFile {
    private static final int BLOCK = 3;
    private static final int BLOCKS = 4;

    private StridedFile() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        boolean writing = args[0].equals("write");
        Info hints = new Info();
        hints.set("cb_buffer_size", "20"); // windows smaller than a domain: two-phase I/O cycles through them
        File f = new File(MPI.COMM_WORLD, args[1], writing ? MPI.MODE_CREATE | MPI.MODE_WRONLY : MPI.MODE_RDONLY,
                hints);
        if (args[0].equals("fatal")) {
            f.setErrhandler(MPI.ERRORS_ARE_FATAL);
            f.write(new int[1], 1, MPI.INT);
            System.out.println("SURVIVED");
        }
        Datatype filetype = Datatype.createResized(Datatype.createContiguous(BLOCK, MPI.INT), 0, size * BLOCK * 4);
        filetype.commit();
        f.setView((long) rank * BLOCK * 4, MPI.INT, filetype, "native");
        int[] data = new int[BLOCK * BLOCKS];
        if (writing) {
            for (int k = 0; k < BLOCKS; k++) {
                for (int i = 0; i < BLOCK; i++) {
                    data[k * BLOCK + i] = (k * size + rank) * BLOCK + i;
                }
            }
            f.writeAll(data, data.length, MPI.INT);
        } else {
            Status status = f.read(data, data.length, MPI.INT);
            boolean bad = status.getCount(MPI.INT) != data.length;
            for (int k = 0; k < BLOCKS; k++) {
                for (int i = 0; i < BLOCK; i++) {
                    bad |= data[k * BLOCK + i] != (k * size + rank) * BLOCK + i;
                }
            }
            System.out.println("rank " + rank + " read " + (bad ? "WRONG" : "ok"));
        }
        f.close();
        MPI.Finalize();
    }
}
