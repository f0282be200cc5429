package org.weft.bench.osu;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * {@code osu_bibw}: both ranks send a window of {@value Bandwidth#WINDOW} messages to each other at once;
 * bandwidth counts the bytes of both directions. Usage: {@code BiBandwidth [-m maxBytes] [-i windows] [--heap]};
 * sizes from 1 byte.
 *
 * <p>Direct buffers (default) post the window's {@code iRecv}s, then its {@code iSend}s, and wait for all, as OSU
 * does. {@code --heap} sends {@code byte[]}, which the Open MPI Java bindings accept only in blocking calls: the
 * window is then {@value Bandwidth#WINDOW} blocking {@code sendRecv}s (one message each way at a time).
 */
public final class BiBandwidth {
    private static final int WINDOW = Bandwidth.WINDOW;
    private static final OsuRun.Schedule SCHEDULE = new OsuRun.Schedule(100, 5, 10);
    private static final int TAG = 100;

    private final OsuRun run;
    private final Request[] requests = new Request[2 * WINDOW];

    private BiBandwidth(OsuRun run) {
        this.run = run;
    }

    public static void main(String[] args) throws MPIException {
        OsuRun run = OsuRun.init(args, SCHEDULE, 1);
        run.measureAllSizes("bi-directional bandwidth", "Bandwidth (MB/s)",
                new BiBandwidth(run)::megabytesPerSecond);
    }

    private double megabytesPerSecond(int size, int windows, int warmup) throws MPIException {
        double seconds = OsuRun.seconds(windows, warmup, () -> window(size));
        return OsuRun.megabytesPerSecond(2.0 * size * WINDOW * windows, seconds);
    }

    private void window(int size) throws MPIException {
        if (run.heap) {
            for (int j = 0; j < WINDOW; j++) {
                MPI.COMM_WORLD.sendRecv(run.sendBuffer, size, MPI.BYTE, run.peer, TAG,
                        run.recvBuffer, size, MPI.BYTE, run.peer, TAG);
            }
            return;
        }
        for (int j = 0; j < WINDOW; j++) {
            requests[j] = MPI.COMM_WORLD.iRecv((ByteBuffer) run.recvBuffer, size, MPI.BYTE, run.peer, TAG);
        }
        for (int j = 0; j < WINDOW; j++) {
            requests[WINDOW + j] = MPI.COMM_WORLD.iSend((ByteBuffer) run.sendBuffer, size, MPI.BYTE, run.peer, TAG);
        }
        Request.waitAll(requests);
    }
}
