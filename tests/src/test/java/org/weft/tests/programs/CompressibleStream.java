package org.weft.tests.programs;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * A stream of {@code COUNT} messages of {@code BYTES} from rank 0 to rank 1, all started at once, of data that LZ4
 * compresses well ({@code compressible}: a smooth field stored in plateaus) or not at all ({@code random}); rank 1
 * checks every message and prints {@code STREAM OK KIND COUNT}. Arguments: {@code KIND COUNT BYTES}.
 */
public final class CompressibleStream {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        String kind = args[0];
        int count = Integer.parseInt(args[1]);
        int bytes = Integer.parseInt(args[2]);
        int rank = MPI.COMM_WORLD.getRank();
        ByteBuffer[] messages = new ByteBuffer[count];
        Request[] requests = new Request[count];
        for (int i = 0; i < count; i++) {
            messages[i] = MPI.newByteBuffer(bytes);
            if (rank == 0) {
                fill(messages[i], kind, i);
                requests[i] = MPI.COMM_WORLD.iSend(messages[i], bytes, MPI.BYTE, 1, i);
            } else {
                requests[i] = MPI.COMM_WORLD.iRecv(messages[i], bytes, MPI.BYTE, 0, i);
            }
        }
        Request.waitAll(requests);
        if (rank == 1) {
            ByteBuffer expected = MPI.newByteBuffer(bytes);
            for (int i = 0; i < count; i++) {
                fill(expected, kind, i);
                if (!expected.equals(messages[i].clear())) {
                    throw new IllegalStateException("message " + i + " arrived altered");
                }
            }
            System.out.println("STREAM OK " + kind + " " + count);
        }
        MPI.Finalize();
    }

    private static void fill(ByteBuffer data, String kind, int seed) {
        data.clear();
        if (kind.equals("random")) {
            byte[] random = new byte[data.capacity()];
            new SplittableRandom(seed).nextBytes(random);
            data.put(0, random);
            return;
        }
        ByteBuffer doubles = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < data.capacity() / Double.BYTES; i++) {
            double x = (i / 64) * 64 * 1e-5 + seed; // the field sampled once per 64 points
            doubles.putDouble(i * Double.BYTES, Math.sin(x) * Math.exp(-x / 50));
        }
    }

    private CompressibleStream() {
    }
}
