package org.weft.tests.programs;

import java.nio.ByteBuffer;
import mpi.Comm;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;

/**
 * Rank 0 sends one 4 MiB message to rank 1 on a duplicate of {@code COMM_WORLD} whose info says
 * {@code weft_streams=STREAMS} (the first argument); rank 1 checks it and prints {@code HINTED OK}.
 */
public final class StreamsHint {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int size = 4 << 20;
        Info info = new Info();
        info.set("weft_streams", args[0]);
        Comm comm = MPI.COMM_WORLD.dup();
        comm.setInfo(info);
        ByteBuffer data = MPI.newByteBuffer(size);
        if (comm.getRank() == 0) {
            for (int i = 0; i < size; i++) {
                data.put(i, (byte) (i * 7 + (i >> 12)));
            }
            comm.send(data, size, MPI.BYTE, 1, 5);
        } else if (comm.getRank() == 1) {
            comm.recv(data, size, MPI.BYTE, 0, 5);
            for (int i = 0; i < size; i++) {
                if (data.get(i) != (byte) (i * 7 + (i >> 12))) {
                    System.out.println("HINTED WRONG at byte " + i);
                    MPI.COMM_WORLD.abort(1);
                }
            }
            System.out.println("HINTED OK");
        }
        comm.free();
        MPI.Finalize();
    }
}
