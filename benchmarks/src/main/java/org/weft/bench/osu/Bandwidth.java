package org.weft.bench.osu;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * {@code osu_bw}: rank 0 sends a window of {@value #WINDOW} messages to rank 1, which answers the whole window with
 * one small acknowledgement; bandwidth is the bytes of the timed windows over their time. Usage:
 * {@code Bandwidth [-m maxBytes] [-i windows] [--heap]}; sizes from 1 byte.
 *
 * <p>Direct buffers (default) use {@code iSend}/{@code iRecv} and {@code waitAll}, as OSU does. {@code --heap}
 * sends {@code byte[]}, which the Open MPI Java bindings accept only in blocking calls: the window is then
 * {@value #WINDOW} blocking sends against {@value #WINDOW} blocking receives, so above the eager limit each send
 * waits for its receive (the figure is then lower than OSU's nonblocking one by construction).
 */
public final class Bandwidth {
    static final int WINDOW = 64;
    private static final OsuRun.Schedule SCHEDULE = new OsuRun.Schedule(100, 5, 10);
    private static final int TAG = 100;
    private static final int ACK_TAG = 101;

    private final OsuRun run;
    private final Object ack;
    private final Request[] requests = new Request[WINDOW];

    private Bandwidth(OsuRun run) {
        this.run = run;
        this.ack = run.newBuffer(4);
    }

    public static void main(String[] args) throws MPIException {
        OsuRun run = OsuRun.init(args, SCHEDULE, 1);
        run.measureAllSizes("bandwidth", "Bandwidth (MB/s)", new Bandwidth(run)::megabytesPerSecond);
    }

    private double megabytesPerSecond(int size, int windows, int warmup) throws MPIException {
        double seconds = OsuRun.seconds(windows, warmup, () -> window(size));
        return OsuRun.megabytesPerSecond((double) size * WINDOW * windows, seconds);
    }

    private void window(int size) throws MPIException {
        boolean sender = run.rank == 0;
        for (int j = 0; j < WINDOW; j++) {
            requests[j] = sender ? send(size) : receive(size);
        }
        if (!run.heap) {
            Request.waitAll(requests);
        }
        if (sender) {
            MPI.COMM_WORLD.recv(ack, 4, MPI.BYTE, run.peer, ACK_TAG);
        } else {
            MPI.COMM_WORLD.send(ack, 4, MPI.BYTE, run.peer, ACK_TAG);
        }
    }

    /** One send of the window: nonblocking from a direct buffer, else blocking (its request is then null). */
    private Request send(int size) throws MPIException {
        if (!run.heap) {
            return MPI.COMM_WORLD.iSend((ByteBuffer) run.sendBuffer, size, MPI.BYTE, run.peer, TAG);
        }
        MPI.COMM_WORLD.send(run.sendBuffer, size, MPI.BYTE, run.peer, TAG);
        return null;
    }

    /** One receive of the window, as {@link #send}. */
    private Request receive(int size) throws MPIException {
        if (!run.heap) {
            return MPI.COMM_WORLD.iRecv((ByteBuffer) run.recvBuffer, size, MPI.BYTE, run.peer, TAG);
        }
        MPI.COMM_WORLD.recv(run.recvBuffer, size, MPI.BYTE, run.peer, TAG);
        return null;
    }
}
