package org.weft.launcher.agent;

import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.weft.launcher.plan.RankLaunch;

/** Starts each launch on its host: here as a child process, elsewhere through the remote shell. */
public final class HostAgent {
    /** How long removing the job's directory on another host may take. */
    private static final long CLEAN_UP_SECONDS = 15;
    private static final File NO_INPUT = new File("/dev/null");

    private final LocalAgent local;
    private final RemoteShell remote;

    public HostAgent(LocalAgent local, RemoteShell remote) {
        this.local = local;
        this.remote = remote;
    }

    public RankProcess start(RankLaunch launch) throws IOException {
        if (!launch.isRemote()) {
            return local.start(launch);
        }
        RankProcess process = local.start(remote.wrap(launch));
        try {
            process.stdin().write(RemoteShell.stdinPreamble(launch)); // a pipe takes a line without blocking
            process.stdin().flush();
        } catch (IOException e) {
            // the agent has already ended (an unreachable host): its exit and messages say why
        }
        return process;
    }

    /**
     * Removes {@code dir} on each of {@code hosts}, all at once; returns the hosts where that failed (or took longer
     * than {@link #CLEAN_UP_SECONDS}). A crashed launcher leaves them behind; the next weftrun there sweeps them.
     */
    public List<String> removeDirectory(List<String> hosts, Path dir) throws InterruptedException {
        List<Process> removals = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String host : hosts) {
            try {
                removals.add(new ProcessBuilder(remote.command(host, "rm -rf " + RemoteShell.quote(dir.toString())))
                        .redirectInput(Redirect.from(NO_INPUT))
                        .redirectOutput(Redirect.DISCARD).redirectError(Redirect.DISCARD).start());
            } catch (IOException e) {
                removals.add(null);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLEAN_UP_SECONDS);
        for (int i = 0; i < hosts.size(); i++) {
            Process removal = removals.get(i);
            if (removal == null || !removal.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
                    || removal.exitValue() != 0) {
                failed.add(hosts.get(i));
                if (removal != null) {
                    removal.destroyForcibly();
                }
            }
        }
        return failed;
    }
}
