package org.weft.tests.programs;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A client that sends eagerly and then blocks in dynamic-process calls: rank 0 sends one int to rank 1 (complete
 * once its link took it, maybe still behind the link's TLS handshake) and at once looks up the name rank 1
 * publishes only after it received that int, again and again until it is there (a client that may start before
 * its server), then connects to the port it names. Rank 1 receives, opens a port, publishes it and accepts. Rank 0
 * blocked in requests to the launcher without progressing would never let its int arrive. Prints
 * {@code CONNECTED rank R remote 1 got V}.
 */
public final class LookupAfterEagerSend {
    private static final String SERVICE = "weft-lookup-after-send";

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int[] value = {rank == 0 ? 42 : -1};
        Intercomm other;
        if (rank == 0) {
            MPI.COMM_WORLD.send(value, 1, MPI.INT, 1, 7);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            other = MPI.COMM_SELF.connect(lookUpUntilPublished(), 0);
        } else {
            MPI.COMM_WORLD.recv(value, 1, MPI.INT, 0, 7);
            String port = Intracomm.openPort();
            Intracomm.publishName(SERVICE, port);
            other = MPI.COMM_SELF.accept(port, 0);
            Intracomm.unpublishName(SERVICE, port);
            Intracomm.closePort(port);
        }
        int[] got = new int[1];
        other.sendRecv(value, 1, MPI.INT, 0, 1, got, 1, MPI.INT, 0, 1);
        System.out.println("CONNECTED rank " + rank + " remote " + other.getRemoteSize() + " got " + got[0]);
        other.disconnect();
        MPI.Finalize();
    }

    private static String lookUpUntilPublished() throws MPIException {
        while (true) {
            try {
                return Intracomm.lookupName(SERVICE);
            } catch (MPIException e) {
                if (e.getErrorClass() != MPI.ERR_NAME) {
                    throw e;
                }
            }
        }
    }

    private LookupAfterEagerSend() {
    }
}
