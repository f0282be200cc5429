package org.weft.launcher.agent;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.weft.adi.WorldConfig;
import org.weft.launcher.plan.RankLaunch;
import org.weft.mm.module.shm.ShmParameters;

/**
 * Runs commands on other hosts as {@code mpirun} does over {@code ssh}: the agent's command (by default
 * {@code ssh -x -o BatchMode=yes}), the host, then one command line that a POSIX shell on that host runs. Any
 * program with that contract serves ({@code weftrun --rsh}); {@code bin/weft-netns exec} runs it in a network
 * namespace of this machine. The remote line carries the launch's environment (a remote shell does not pass the
 * launcher's on), enters the launcher's working directory when the host has it, and makes the job's directory
 * first, as shared memory needs it on every host.
 */
public final class RemoteShell {
    /** What {@code --rsh} defaults to: no X11, and a failure instead of a password prompt nobody can answer. */
    public static final String DEFAULT_AGENT = "ssh -x -o BatchMode=yes";

    /**
     * A watch started before the launch replaces the remote shell (same pid, same start time): once a second it
     * reads the process's parent, the agent's end of the connection (sshd's session), and when that has gone — the
     * agent was killed, the connection dropped, the launcher crashed with it — it sends the process SIGTERM. A rank
     * that never reached {@code MPI_Init} (whose bootstrap connection would end it) and an mpirun of a site are then
     * not left running. However the process ends, the watch then removes {@code jobDir} on that host: a job's
     * processes there are past its finalize barrier by then, and after a launcher crash nobody else would. The start
     * time is compared too, so a pid reused after the process ended is never signalled. Linux's /proc. A SIGTERM
     * to the watch itself removes {@code jobDir} too: SLURM ends a cancelled job's steps with SIGTERM to every
     * process before its SIGKILL, and no launcher can reach the node then.
     */
    static String orphanWatch(String jobDir) {
        String removal = jobDir == null ? "" : "rm -rf " + quote(jobDir);
        return "p=$PPID; (" + (jobDir == null ? "" : "trap '" + removal.replace("'", "'\\''") + "; exit' TERM; ")
                + "t=; while s=$(cut -d ' ' -f 4,22 /proc/$$/stat 2>/dev/null)"
                + " && [ \"${s#* }\" = \"${t:=${s#* }}\" ]; do"
                + " [ \"${s%% *}\" = \"$p\" ] || { kill $$; sleep 2; break; }; sleep 1; done"
                + (jobDir == null ? "" : "; " + removal) + ") </dev/null >/dev/null 2>&1 & ";
    }

    /** How the agent program is called to run one shell line on a host. */
    @FunctionalInterface
    public interface Agent {
        /** The command line that runs {@code shellLine} on {@code host}. */
        List<String> command(String host, String shellLine);
    }

    private final Agent agent;
    private final String workingDirectory;

    /**
     * @param agent the agent's command and its options, the host and command line are appended
     * @param workingDirectory the directory remote commands start in when it exists there
     */
    public RemoteShell(List<String> agent, String workingDirectory) {
        this(likeSsh(agent), workingDirectory);
    }

    /**
     * @param agent how the agent is called (ssh's contract, or another such as srun's)
     * @param workingDirectory the directory remote commands start in when it exists there
     */
    public RemoteShell(Agent agent, String workingDirectory) {
        this.agent = agent;
        this.workingDirectory = workingDirectory;
    }

    /** ssh's contract: the program and its options, then the host, then the line. */
    private static Agent likeSsh(List<String> program) {
        if (program.isEmpty()) {
            throw new IllegalArgumentException("an empty remote shell command");
        }
        List<String> words = List.copyOf(program);
        return (host, shellLine) -> {
            List<String> command = new ArrayList<>(words);
            command.add(host);
            command.add(shellLine);
            return command;
        };
    }

    /** The agent given as one string, split at white space ({@code --rsh "ssh -p 2222"}). */
    public static RemoteShell parse(String agent, String workingDirectory) {
        return new RemoteShell(words(agent), workingDirectory);
    }

    /** An agent given as one string ({@code --rsh "ssh -p 2222"}) as its program and arguments. */
    public static List<String> words(String agent) {
        return List.of(agent.trim().split("\\s+"));
    }

    /**
     * The launch as this host starts it: the agent running the launch's command, with its environment, there. The
     * job's secret is not in the line (any user of either host could read it in the agent's or the shell's
     * arguments): the line reads it from its standard input, where {@link #stdinPreamble} goes first.
     */
    public RankLaunch wrap(RankLaunch launch) {
        StringBuilder line = new StringBuilder();
        if (launch.environment().containsKey(WorldConfig.ENV_SECRET)) {
            line.append("IFS= read -r ").append(WorldConfig.ENV_SECRET).append(" || exit 1; export ")
                    .append(WorldConfig.ENV_SECRET).append("; ");
        }
        String jobDir = launch.environment().get(ShmParameters.JOB_DIR.environmentName());
        line.append(orphanWatch(jobDir));
        line.append("cd ").append(quote(workingDirectory)).append(" 2>/dev/null; ");
        if (jobDir != null) {
            line.append("mkdir -p -m 700 ").append(quote(jobDir)).append(" && ");
        }
        line.append("exec env");
        for (Map.Entry<String, String> variable : launch.environment().entrySet()) {
            if (!variable.getKey().equals(WorldConfig.ENV_SECRET)) {
                line.append(' ').append(quote(variable.getKey() + "=" + variable.getValue()));
            }
        }
        for (String word : launch.command()) {
            line.append(' ').append(quote(word));
        }
        return launch.withCommand(command(launch.host(), line.toString()), Map.of());
    }

    /** What the launcher writes to a wrapped launch's standard input before anything else: the secret's line. */
    public static byte[] stdinPreamble(RankLaunch launch) {
        String secret = launch.environment().get(WorldConfig.ENV_SECRET);
        return secret == null ? new byte[0] : (secret + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** The agent's command that runs {@code shellLine} on {@code host}. */
    public List<String> command(String host, String shellLine) {
        return agent.command(host, shellLine);
    }

    /** {@code word} as one word of a POSIX shell line, whatever it holds. */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
