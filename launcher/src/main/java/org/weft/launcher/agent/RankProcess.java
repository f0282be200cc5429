package org.weft.launcher.agent;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;

/** A started rank: its process and streams, as seen by the launcher. */
public final class RankProcess {
    private final int rank;
    private final Process process;

    RankProcess(int rank, Process process) {
        this.rank = rank;
        this.process = process;
    }

    public int rank() {
        return rank;
    }

    public long pid() {
        return process.pid();
    }

    public InputStream stdout() {
        return process.getInputStream();
    }

    public InputStream stderr() {
        return process.getErrorStream();
    }

    public OutputStream stdin() {
        return process.getOutputStream();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Completes with the exit status when the process ends (128 + signal number when killed by a signal). */
    public CompletableFuture<Integer> onExit() {
        return process.onExit().thenApply(Process::exitValue);
    }

    /** Kills the rank and everything it started, without grace (SIGKILL on Unix). */
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
