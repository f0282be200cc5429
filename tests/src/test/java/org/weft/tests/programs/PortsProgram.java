package org.weft.tests.programs;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Two groups of one job meet through a port found by name: world ranks below half open a port (rank 0), publish it
 * and accept; the others look it up and connect; over the intercommunicator each side sums the other's world ranks
 * ({@code SIDE server|client rank R remote S sum X}). Rank 0 and the last rank also try the errors MPI names, under
 * {@code ERRORS_RETURN} ({@code ERROR what class C}).
 */
public final class PortsProgram {
    private static final String SERVICE = "weft-ports-test";

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        boolean server = rank < size / 2;
        Intracomm group = MPI.COMM_WORLD.split(server ? 0 : 1, rank);
        String port = null;
        if (rank == 0) {
            port = Intracomm.openPort();
            Intracomm.publishName(SERVICE, port);
            expectError("publish twice", () -> Intracomm.publishName(SERVICE, "weft-port:other"));
            expectError("close a port never opened", () -> Intracomm.closePort("weft-port:x/0/1"));
            System.out.println("PORT " + port);
        }
        MPI.COMM_WORLD.barrier(); // the name is published
        Intercomm other;
        if (server) {
            other = group.accept(port, 0);
        } else {
            if (rank == size - 1) {
                expectError("look up a name nobody published", () -> Intracomm.lookupName("nobody-here"));
                expectError("unpublish a name not published", () -> Intracomm.unpublishName("nobody-here",
                        "weft-port:x/0/1"));
                MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
                expectError("connect to a garbled port", () -> MPI.COMM_SELF.connect("weft-port:nonsense", 0));
                expectError("connect to another job's port", () -> MPI.COMM_SELF.connect("weft-port:elsewhere/0/7",
                        0));
            }
            String found = Intracomm.lookupName(SERVICE);
            other = group.connect(found, 0);
        }
        int[] sum = new int[1];
        other.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        System.out.println("SIDE " + (server ? "server" : "client") + " rank " + rank + " remote "
                + other.getRemoteSize() + " sum " + sum[0]);
        other.disconnect();
        if (rank == 0) {
            Intracomm.unpublishName(SERVICE, port);
            Intracomm.closePort(port);
            String closed = port;
            expectError("close a closed port", () -> Intracomm.closePort(closed));
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }

    private interface Call {
        void run() throws MPIException;
    }

    private static void expectError(String what, Call call) {
        try {
            call.run();
            System.out.println("ERROR " + what + " class none");
        } catch (MPIException e) {
            System.out.println("ERROR " + what + " class " + e.getErrorClass());
        }
    }

    private PortsProgram() {
    }
}
