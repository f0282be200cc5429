package org.weft.launcher.testapps;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.SocketBootstrap;

/**
 * A rank program for the launcher's process tests, using the bootstrap client directly (no MPI yet).
 * {@code TestRank MODE [RANK [CODE]]}: every rank registers and gathers its rank number; then, by mode:
 * <ul>
 *   <li>{@code ok}: barrier, close, exit 0;</li>
 *   <li>{@code halt R C}: rank R halts with status C, the others wait in the barrier;</li>
 *   <li>{@code abort R C}: rank R calls abort(C), the others wait in the barrier;</li>
 *   <li>{@code nofinalize R}: rank R exits 0 without the barrier, the others wait in the barrier;</li>
 *   <li>{@code linger}: sleeps for a minute after gathering (until the launcher's end stops it);</li>
 *   <li>{@code jobdir [R]}: every rank writes a file in {@code WEFT_JOB_DIR} and prints its path; rank R then
 *       kills itself with SIGKILL, the others wait in the barrier;</li>
 *   <li>{@code skip R}: rank R exits 0 at once without the bootstrap, the others register and wait;</li>
 *   <li>{@code sleep}: (no bootstrap) sleeps for a minute;</li>
 *   <li>{@code echo ARGS...}: (no bootstrap) prints its args, a line on stderr, and rank 0 echoes stdin.</li>
 * </ul>
 */
public final class TestRank {
    public static void main(String[] args) throws Exception {
        WorldConfig config = WorldConfig.fromEnvironment();
        int rank = config.rank();
        switch (args[0]) {
            case "sleep" -> Thread.sleep(60_000);
            case "skip" -> {
                if (rank != Integer.parseInt(args[1])) {
                    withBootstrap(config, args);
                }
            }
            case "echo" -> echo(rank, args);
            default -> withBootstrap(config, args);
        }
    }

    private static void echo(int rank, String[] args) throws Exception {
        System.out.println("rank " + rank + " args " + String.join(" ", Arrays.asList(args).subList(1, args.length)));
        System.err.println("rank " + rank + " on stderr");
        System.out.print("rank " + rank + " last line without newline");
        System.out.flush();
        if (rank == 0) {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            System.out.println();
            System.out.println("rank 0 read " + in.readLine());
        }
    }

    private static void withBootstrap(WorldConfig config, String[] args) throws Exception {
        int rank = config.rank();
        SocketBootstrap bootstrap = SocketBootstrap.connect(config);
        byte[][] cards = bootstrap.allGather(new byte[] {(byte) rank});
        for (int r = 0; r < cards.length; r++) {
            if (cards[r].length != 1 || cards[r][0] != r) {
                throw new AssertionError("rank " + rank + " got a wrong card for rank " + r);
            }
        }
        System.out.println("rank " + rank + " gathered " + cards.length + " cards");
        if (args[0].equals("jobdir")) {
            java.nio.file.Path file = java.nio.file.Path.of(System.getenv("WEFT_JOB_DIR"), "rank-" + rank);
            java.nio.file.Files.writeString(file, "a file the rank does not clean up");
            System.out.println("rank " + rank + " wrote " + file);
        }
        if (args[0].equals("linger")) {
            Thread.sleep(60_000);
        }
        int target = args.length > 1 ? Integer.parseInt(args[1]) : -1;
        int code = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        if (rank == target) {
            switch (args[0]) {
                case "halt" -> Runtime.getRuntime().halt(code);
                case "abort" -> bootstrap.abort(code, "test abort from rank " + rank);
                case "nofinalize" -> System.exit(0);
                case "jobdir" -> new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid()))
                        .start().waitFor();
                case "linger", "skip" -> { }
                default -> throw new IllegalArgumentException(args[0]);
            }
        }
        bootstrap.barrier();
        bootstrap.close();
    }
}
