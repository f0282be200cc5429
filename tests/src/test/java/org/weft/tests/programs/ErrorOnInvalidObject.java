package org.weft.tests.programs;

import mpi.Datatype;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;

/**
 * Rank 1 makes one error under {@code COMM_WORLD}'s default handler ({@code ERRORS_ARE_FATAL}) while rank 0 waits
 * for a message that comes only if rank 1 survives: the error must abort the job with its error class. Argument,
 * the error: {@code comm-null} ({@code getRank} on the ranks left out of {@code Comm.create}), {@code freed-comm}
 * (a send on a freed duplicate whose own handler was {@code ERRORS_RETURN}: errors on a freed communicator are
 * raised on {@code COMM_WORLD}), {@code freed-type} ({@code getExtent} of a freed datatype), {@code freed-request}
 * ({@code start} of a freed persistent request made on an {@code ERRORS_RETURN} duplicate) or
 * {@code call-errhandler} ({@code COMM_WORLD.callErrhandler(MPI.ERR_ARG)}). A rank 1 that survives prints
 * {@code SURVIVED} and what it caught, and the job ends normally.
 */
public final class ErrorOnInvalidObject {
    interface Call {
        void run() throws MPIException;
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        Call error = prepare(args[0], rank);
        if (rank == 1) {
            try {
                error.run();
                System.out.println("SURVIVED " + args[0] + ": no error");
            } catch (MPIException e) {
                System.out.println("SURVIVED " + args[0] + ": caught " + e.getMessage());
            }
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 0, 1);
        } else if (rank == 0) {
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, 1, 1);
        }
        MPI.Finalize();
    }

    /** Makes the invalid object on every rank (collectively where it takes a collective) and returns the error. */
    private static Call prepare(String error, int rank) throws MPIException {
        switch (error) {
            case "comm-null" -> {
                Group first = MPI.COMM_WORLD.getGroup().incl(new int[] {0});
                Intracomm created = MPI.COMM_WORLD.create(first);
                return created::getRank;
            }
            case "freed-comm" -> {
                Intracomm dup = MPI.COMM_WORLD.dup();
                dup.setErrhandler(MPI.ERRORS_RETURN);
                dup.free();
                return () -> dup.send(new int[1], 1, MPI.INT, 0, 2);
            }
            case "freed-type" -> {
                Datatype pair = Datatype.createContiguous(2, MPI.INT);
                pair.commit();
                pair.free();
                return pair::getExtent;
            }
            case "freed-request" -> {
                Intracomm dup = MPI.COMM_WORLD.dup();
                dup.setErrhandler(MPI.ERRORS_RETURN);
                Prequest send = dup.sendInit(MPI.newIntBuffer(1), 1, MPI.INT, 0, 3);
                send.free();
                return send::start;
            }
            case "call-errhandler" -> {
                return () -> MPI.COMM_WORLD.callErrhandler(MPI.ERR_ARG);
            }
            default -> throw new IllegalArgumentException(error + " on rank " + rank);
        }
    }

    private ErrorOnInvalidObject() {
    }
}
