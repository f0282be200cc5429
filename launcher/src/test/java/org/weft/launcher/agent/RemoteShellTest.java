package org.weft.launcher.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.launcher.plan.RankLaunch;

/**
 * The remote line a host's shell runs: checked by running it with a real {@code sh} through a stand-in agent that
 * drops the host, as {@code ssh HOST LINE} would run {@code LINE} there.
 */
class RemoteShellTest {
    @TempDir
    Path dir;

    @Test
    void theRemoteLineKeepsEveryWordAndVariableWhateverItHolds() throws Exception {
        Path agent = dir.resolve("agent");
        Files.writeString(agent, "#!/bin/sh\nshift\nexec sh -c \"$1\"\n");
        agent.toFile().setExecutable(true);
        Path jobDir = dir.resolve("job dir/x");
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("WEFT_JOB_DIR", jobDir.toString());
        environment.put("ODD", "it's a \"value\" with $HOME and `ticks`");
        environment.put("WEFT_SECRET", "s3cr3t-value");
        List<String> command = List.of("/bin/sh", "-c",
                "printf '%s\\n' \"$ODD\" \"$1\" \"$(pwd)\" \"$WEFT_SECRET\" \"$(cat)\" \"$(ls -d \"$WEFT_JOB_DIR\")\"", "sh",
                "a 'quoted' $word;");
        RankLaunch launch = new RankLaunch(3, 1, "", null, "nodeX", command, environment);

        RankLaunch remote = new RemoteShell(List.of(agent.toString()), dir.toString()).wrap(launch);
        assertEquals("nodeX", remote.command().get(1), "the agent is given the host first");
        assertTrue(remote.environment().isEmpty(), "the environment travels in the line, not the agent's process");
        assertTrue(remote.command().stream().noneMatch(word -> word.contains("s3cr3t")),
                "the secret is in no process's arguments: " + remote.command());
        Process process = new ProcessBuilder(remote.command()).start();
        try (var stdin = process.getOutputStream()) {
            stdin.write(RemoteShell.stdinPreamble(launch));
            stdin.write("input for the rank\n".getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), new String(process.getErrorStream().readAllBytes()));
        assertEquals(List.of(environment.get("ODD"), "a 'quoted' $word;", dir.toString(), "s3cr3t-value",
                "input for the rank", jobDir.toString()), output.lines().toList(),
                "the secret comes first on stdin, the rest is the rank's; the job's directory is made before it starts");
        for (int i = 0; i < 50 && Files.exists(jobDir); i++) {
            Thread.sleep(100);
        }
        assertFalse(Files.exists(jobDir), "the line's watch removes the job's directory once the process has ended");
    }

    @Test
    void theAgentIsSplitAtWhiteSpace() {
        assertEquals(List.of("ssh", "-p", "2222", "h", "true"), RemoteShell.parse(" ssh  -p 2222 ", "/").command("h",
                "true"));
    }
}
