package org.weft.launcher.agent;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.weft.launcher.plan.RankLaunch;

/**
 * A started process of the job, as seen by the launcher: one rank, or a native site's {@code mpirun} carrying
 * global ranks {@link #rank()} .. {@code rank() + count() - 1}; its process and streams.
 */
public final class RankProcess {
    private final RankLaunch launch;
    private final Process process;
    private final CompletableFuture<ProcessEnd> end;
    /** What the process had started when it was {@linkplain #stop asked to end}. */
    private volatile List<ProcessHandle> family = List.of();
    private volatile boolean endedByLauncher;

    RankProcess(RankLaunch launch, Process process) {
        this.launch = launch;
        this.process = process;
        // opened soon, while the process almost certainly lives (a rank's JVM takes ~0.1 s to do anything)
        this.end = process.onExit().thenCombine(PidfdExit.openSoon(process), (ended, pidfd) -> {
            if (pidfd == null) {
                return ProcessEnd.of(ended.exitValue(), -1);
            }
            try (pidfd) {
                return ProcessEnd.of(ended.exitValue(), pidfd.waitStatus());
            }
        });
    }

    /** What was started. */
    public RankLaunch launch() {
        return launch;
    }

    /** The first global rank the process carries. */
    public int rank() {
        return launch.rank();
    }

    /** How many ranks it carries. */
    public int count() {
        return launch.count();
    }

    /** {@code rank 3 (pid 1234)}, {@code the mpirun of site b (ranks 2-3) (pid 1234)}. */
    public String describe() {
        return launch.describe() + " (pid " + process.pid() + ")";
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

    /** Completes with how the process ended. */
    public CompletableFuture<ProcessEnd> onExit() {
        return end;
    }

    /** Whether the process is a JVM of the launcher's own, on this host (not an mpirun, not a remote shell). */
    public boolean isLocalJvm() {
        return !launch.viaMpirun() && !launch.isRemote();
    }

    /** Whether the launcher {@linkplain #stop stopped} or {@linkplain #kill killed} the process while it ran. */
    public boolean endedByLauncher() {
        return endedByLauncher;
    }

    /**
     * Asks the process to end. A native site's {@code mpirun} gets SIGTERM: it takes its ranks down and removes its
     * session directory (Open MPI's, in the temporary directory, which SIGKILL leaves behind, one per job); the
     * caller {@linkplain #kill kills} it if it does not end in time. A rank is killed at once.
     */
    public void stop() {
        if (process.isAlive()) {
            endedByLauncher = true;
        }
        if (!launch.viaMpirun()) {
            kill();
            return;
        }
        family = process.descendants().toList(); // orphans once the mpirun is gone, and still to be killed
        process.destroy();
    }

    /**
     * Kills the process and everything it started (also before a {@link #stop}), without grace (SIGKILL on Unix).
     * An ended process is not searched for descendants (a walk of every process on the host, at every job's end).
     */
    public void kill() {
        family.forEach(ProcessHandle::destroyForcibly);
        if (process.isAlive()) {
            endedByLauncher = true;
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
