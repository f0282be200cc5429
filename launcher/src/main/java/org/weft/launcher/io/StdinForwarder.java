package org.weft.launcher.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Copies the launcher's stdin to rank 0's stdin (as mpirun does), closing it at end of input so the rank sees
 * EOF. Runs on a daemon thread: a read blocked on a terminal must not keep the launcher alive.
 */
public final class StdinForwarder implements Runnable {
    private final InputStream in;
    private final OutputStream rank0;

    public StdinForwarder(InputStream in, OutputStream rank0) {
        this.in = in;
        this.rank0 = rank0;
    }

    /** Starts forwarding on a daemon thread. */
    public static void start(InputStream in, OutputStream rank0) {
        Thread thread = new Thread(new StdinForwarder(in, rank0), "weftrun-stdin");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        byte[] buffer = new byte[8192];
        try (rank0) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                rank0.write(buffer, 0, n);
                rank0.flush();
            }
        } catch (IOException e) {
            // rank 0 exited or our stdin broke: nothing more to forward
        }
    }
}
