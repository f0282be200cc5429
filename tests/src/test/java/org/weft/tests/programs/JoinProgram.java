package org.weft.tests.programs;

import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import mpi.Comm;
import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * {@code Comm.join}: rank 0 listens on a loopback socket and tells rank 1 the port; the two join over the
 * connection and swap their world ranks plus 100 over the intercommunicator ({@code JOINED rank R remote S got X}).
 */
public final class JoinProgram {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int[] port = new int[1];
        SocketChannel socket;
        if (rank == 0) {
            try (ServerSocketChannel server = ServerSocketChannel.open()) {
                server.bind(new InetSocketAddress("127.0.0.1", 0));
                port[0] = ((InetSocketAddress) server.getLocalAddress()).getPort();
                MPI.COMM_WORLD.send(port, 1, MPI.INT, 1, 0);
                socket = server.accept();
            }
        } else {
            MPI.COMM_WORLD.recv(port, 1, MPI.INT, 0, 0);
            socket = SocketChannel.open(new InetSocketAddress("127.0.0.1", port[0]));
        }
        Intercomm other = Comm.join(socket);
        int[] got = new int[1];
        other.sendRecv(new int[] {rank + 100}, 1, MPI.INT, 0, 5, got, 1, MPI.INT, 0, 5);
        System.out.println("JOINED rank " + rank + " remote " + other.getRemoteSize() + " got " + got[0]);
        other.disconnect();
        socket.close();
        MPI.Finalize();
    }

    private JoinProgram() {
    }
}
