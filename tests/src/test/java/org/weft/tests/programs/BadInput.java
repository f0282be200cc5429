package org.weft.tests.programs;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * Under {@code ERRORS_RETURN}, every bad argument raises {@code MPIException} with its error class, and the job
 * goes on: after each error a correct exchange around the ring still delivers the right data. Prints one line per
 * case ({@code CASE name -> MPI_ERR_...}) and {@code BADINPUT OK} at the end.
 */
public final class BadInput {
    interface Call {
        void run() throws MPIException;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int[] data = new int[10];
        expect("rank out of range", MPI.ERR_RANK, () -> MPI.COMM_WORLD.send(data, 1, MPI.INT, size, 0));
        expect("negative rank", MPI.ERR_RANK, () -> MPI.COMM_WORLD.recv(data, 1, MPI.INT, -7, 0));
        expect("negative send tag", MPI.ERR_TAG, () -> MPI.COMM_WORLD.send(data, 1, MPI.INT, 0, -3));
        expect("negative receive tag", MPI.ERR_TAG, () -> MPI.COMM_WORLD.recv(data, 1, MPI.INT, 0, -3));
        expect("negative count", MPI.ERR_COUNT, () -> MPI.COMM_WORLD.send(data, -1, MPI.INT, 0, 0));
        expect("null datatype", MPI.ERR_TYPE, () -> MPI.COMM_WORLD.send(data, 1, (Datatype) null, 0, 0));
        expect("null buffer", MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.send(null, 1, MPI.INT, 0, 0));
        expect("buffer shorter than count", MPI.ERR_BUFFER, () -> MPI.COMM_WORLD.send(data, 11, MPI.INT, 0, 0));
        ringStillWorks(rank, size, 1);

        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int[] ten = new int[10];
        java.util.Arrays.fill(ten, rank);
        int[] five = new int[8];
        five[5] = -42;
        MPI.COMM_WORLD.iSend(MPI.slice(copyToDirect(ten), 0), 10, MPI.INT, next, 5);
        expect("truncated receive", MPI.ERR_TRUNCATE, () -> MPI.COMM_WORLD.recv(five, 5, MPI.INT, prev, 5));
        check(five[0] == prev && five[4] == prev, "the truncated receive holds the first 5 ints");
        check(five[5] == -42, "ints past the receive count are untouched");
        ringStillWorks(rank, size, 2);
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            System.out.println("BADINPUT OK");
        }
        MPI.Finalize();
    }

    static java.nio.IntBuffer copyToDirect(int[] values) {
        java.nio.IntBuffer b = MPI.newIntBuffer(values.length);
        b.put(values).clear();
        return b;
    }

    static void expect(String name, int errorClass, Call call) {
        try {
            call.run();
        } catch (MPIException e) {
            check(e.getErrorClass() == errorClass, name + ": expected error class " + errorClass + ", got "
                    + e.getErrorClass() + " (" + e.getMessage() + ")");
            if (rankOrZero() == 0) {
                System.out.println("CASE " + name + " -> " + e.getErrorClass());
            }
            return;
        }
        throw new IllegalStateException(name + ": no MPIException");
    }

    static int rankOrZero() {
        try {
            return MPI.COMM_WORLD.getRank();
        } catch (MPIException e) {
            return -1;
        }
    }

    static void ringStillWorks(int rank, int size, int round) throws MPIException {
        int[] token = {rank * 1000 + round};
        int[] got = new int[1];
        Status s = MPI.COMM_WORLD.sendRecv(token, 1, MPI.INT, (rank + 1) % size, 77, got, 1, MPI.INT,
                (rank + size - 1) % size, 77);
        int prev = (rank + size - 1) % size;
        check(got[0] == prev * 1000 + round && s.getSource() == prev, "ring after errors, round " + round);
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException(what);
        }
    }
}
