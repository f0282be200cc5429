package org.weft.launcher.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Open MPI's side of a benchmark: the C program in {@code benchmarks/src/main/c} that measures the same thing the
 * same way, and its arguments for a run of the Java one ({@code -m}, {@code -i}, {@code -s} carried over). Each
 * prints OSU's rows ({@code SIZE FIGURE ...}), read as the first figure of the Java benchmark's table.
 *
 * @param source the C file
 * @param arguments the program's arguments
 */
public record CTwin(String source, List<String> arguments) {
    /** The C twin of {@code benchmark} run with {@code args}, if it has one that prints OSU rows. */
    public static Optional<CTwin> of(String benchmark, List<String> args) {
        String max = option(args, "-m");
        String iterations = option(args, "-i");
        String warmUp = option(args, "-w"); // the collectives' least warm-up seconds, as the Java side's
        return Optional.ofNullable(switch (benchmark) {
            case "latency" -> new CTwin("pingpong.c", present(max == null ? "4194304" : max, iterations));
            case "bw" -> new CTwin("bandwidth.c", present(max == null ? "4194304" : max, iterations));
            case "bcast", "allreduce", "alltoall", "allgather", "gather", "scatter", "reduce", "barrier",
                 "reduce_scatter_block", "iallreduce", "ibarrier", "ireduce", "ireduce_scatter_block", "ibcast",
                 "iallgather", "ialltoall", "igather", "iscatter" ->
                    new CTwin("collectives.c", present(benchmark, max == null ? "1048576" : max,
                            iterations == null && warmUp != null ? "1000" : iterations, warmUp));
            case "put_latency", "get_latency" -> new CTwin("one-sided.c", present(benchmark.substring(0, 3),
                    option(args, "-s") == null ? "flush" : option(args, "-s"), max == null ? "4194304" : max));
            default -> null;
        });
    }

    /** The benchmarks that have a twin, for messages. */
    public static List<String> benchmarks() {
        return List.of("latency", "bw", "bcast", "allreduce", "alltoall", "allgather", "gather", "scatter", "reduce",
                "barrier", "reduce_scatter_block", "iallreduce", "ibarrier", "ireduce", "ireduce_scatter_block",
                "ibcast", "iallgather", "ialltoall", "igather", "iscatter", "put_latency", "get_latency");
    }

    /** The program's name: its source's without {@code .c}. */
    public String program() {
        return source.substring(0, source.length() - 2);
    }

    /** The arguments up to the first missing one (a C program takes its arguments by position). */
    private static List<String> present(String... values) {
        List<String> list = new ArrayList<>();
        for (String value : values) {
            if (value == null) {
                break;
            }
            list.add(value);
        }
        return list;
    }

    private static String option(List<String> args, String name) {
        int at = args.indexOf(name);
        return at >= 0 && at + 1 < args.size() ? args.get(at + 1) : null;
    }
}
