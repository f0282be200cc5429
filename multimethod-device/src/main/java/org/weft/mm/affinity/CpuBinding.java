package org.weft.mm.affinity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.weft.adi.param.Parameter;
import org.weft.adi.param.Parameters;

/**
 * {@code weftrun --bind-to core|hwthread|none}, applied by each rank to itself when it starts: of the CPUs it may run
 * on (what its launcher, a cgroup or SLURM allow), grouped into cores by Linux's {@code thread_siblings_list}, rank
 * L of its host takes core {@code L mod cores} (with {@code hwthread}: CPU {@code L mod CPUs}), and every thread of
 * its JVM is bound there. Open MPI binds before {@code exec}; a JVM bound after its start keeps the ergonomics it chose
 * for all the CPUs (GC and compiler threads), which then share one core. More ranks than cores on a host wrap around
 * (Open MPI refuses that without {@code overload-allowed}); {@code --report-bindings} makes each rank say where it is
 * bound, in Open MPI's words.
 *
 * <p>Without {@code --bind-to} ({@code auto}), a rank that weftrun started on a host its job fills (as many ranks
 * as CPUs) binds only its MPI thread (the one in {@code MPI_Init}) to its core, as mpirun binds two ranks to cores by
 * default: unbound, Linux left both ranks of a 2-rank job on one of two CPUs for whole runs now and then, and a wait
 * then spun until the time slice ended (a 2 B bcast 920× Open MPI's). Its compiler and GC threads stay free to run on
 * any CPU, which whole-process binding took from them (the bound benchmark was no faster). Threads the MPI thread
 * starts later inherit its core, as under mpirun; on a host with CPUs to spare (where Linux has somewhere to move a
 * rank) nothing is bound.
 */
public final class CpuBinding {
    public static final Parameter<String> BIND_TO = Parameter.string("bind_to", "auto",
            "bind each rank to a core of its host (core), to one hardware thread (hwthread), or not at all (none);"
                    + " auto = the MPI thread alone to its core when the job has as many ranks on the host as CPUs;"
                    + " set by weftrun --bind-to");
    public static final Parameter<Integer> REPORT_BINDINGS = Parameter.integer("report_bindings", 0, "flag",
            "1 = each rank prints where it is bound (weftrun --report-bindings)");
    public static final Parameter<Integer> LOCAL_RANK = Parameter.integer("local_rank", -1, "index",
            "this rank's index among the job's ranks on its host; set by weftrun, -1 = its world rank");
    public static final List<Parameter<?>> PARAMETERS = List.of(BIND_TO, REPORT_BINDINGS, LOCAL_RANK);

    private CpuBinding() {
    }

    /**
     * Binds this process as {@code parameters} ask, {@code localRanks} of its job sharing the host's {@code cpus}.
     * {@code log} hears where it is bound when the binding is to be reported ({@code --report-bindings}), and why it is
     * not when binding was asked for and cannot be done here.
     */
    public static void apply(Parameters parameters, int worldRank, int localRanks, int cpus, String host,
            Consumer<String> log) {
        String bindTo = parameters.get(BIND_TO);
        int localRank = parameters.get(LOCAL_RANK);
        boolean report = parameters.get(REPORT_BINDINGS) != 0;
        String prefix = "[" + host + ":" + ProcessHandle.current().pid() + "] MCW rank " + worldRank;
        if (bindTo.equals("auto")) {
            boolean startedByWeftrun = localRank >= 0;
            if (startedByWeftrun && cpus > 1 && localRanks == cpus) {
                String outcome = bind("core", localRank, false);
                if (report) {
                    log.accept(prefix + " " + outcome);
                }
                return;
            }
            bindTo = "none";
        }
        if (bindTo.equals("none")) {
            if (report) {
                log.accept(prefix + " is not bound (or bound to all available processors)");
            }
            return;
        }
        String outcome = bind(bindTo, localRank >= 0 ? localRank : worldRank, true);
        if (report || !outcome.startsWith("bound")) {
            log.accept(prefix + " " + outcome);
        }
    }

    /**
     * Binds this process ({@code wholeProcess}) or the calling thread to the {@code localRank}-th core or hardware
     * thread; says where, or why not.
     */
    private static String bind(String bindTo, int localRank, boolean wholeProcess) {
        Function<BitSet, List<BitSet>> units = switch (bindTo) {
            case "core" -> CpuBinding::cores;
            case "hwthread" -> CpuBinding::hwthreads;
            default -> throw new IllegalArgumentException("parameter " + BIND_TO.name() + ": " + bindTo
                    + " is not core, hwthread, none or auto");
        };
        LinuxAffinity affinity = LinuxAffinity.bind();
        if (affinity.cause() != null) {
            return "is not bound: " + affinity.cause();
        }
        BitSet allowed = affinity.allowed();
        List<BitSet> choices = units.apply(allowed);
        BitSet chosen = choices.get(Math.floorMod(localRank, choices.size()));
        String where = bindTo + " " + cpuList(chosen) + " (CPUs " + cpuList(allowed) + " allowed)";
        if (!wholeProcess) {
            return affinity.bindThisThread(chosen) ? "has its MPI thread bound to " + where + ", its other threads"
                    + " not bound" : "is not bound: sched_setaffinity refused its MPI thread";
        }
        int failed = affinity.bindAllThreads(chosen);
        return "bound to " + where + (failed == 0 ? "" : "; " + failed + " of its threads could not be bound");
    }

    /** CPUs as Linux lists them: {@code 0-3,6}. */
    static String cpuList(BitSet cpus) {
        StringBuilder list = new StringBuilder();
        for (int low = cpus.nextSetBit(0); low >= 0; low = cpus.nextSetBit(cpus.nextClearBit(low))) {
            int high = cpus.nextClearBit(low) - 1;
            list.append(list.isEmpty() ? "" : ",").append(low).append(high > low ? "-" + high : "");
        }
        return list.toString();
    }

    /** Each allowed CPU on its own. */
    static List<BitSet> hwthreads(BitSet allowed) {
        List<BitSet> units = new ArrayList<>();
        allowed.stream().forEach(cpu -> {
            BitSet one = new BitSet();
            one.set(cpu);
            units.add(one);
        });
        return units;
    }

    /** The allowed CPUs grouped by core (Linux's sibling list), in the order of each core's first CPU. */
    static List<BitSet> cores(BitSet allowed) {
        List<BitSet> units = new ArrayList<>();
        BitSet taken = new BitSet();
        allowed.stream().filter(cpu -> !taken.get(cpu)).forEach(cpu -> {
            BitSet core = siblings(cpu);
            core.and(allowed);
            core.set(cpu);
            taken.or(core);
            units.add(core);
        });
        return units;
    }

    /** The hardware threads of {@code cpu}'s core; the CPU alone where Linux does not say. */
    private static BitSet siblings(int cpu) {
        BitSet siblings = new BitSet();
        try {
            String list = Files.readString(Path.of("/sys/devices/system/cpu/cpu" + cpu
                    + "/topology/thread_siblings_list")).strip();
            for (String range : list.split(",")) {
                String[] bounds = range.split("-");
                int low = Integer.parseInt(bounds[0]);
                int high = Integer.parseInt(bounds[bounds.length - 1]);
                siblings.set(low, high + 1);
            }
        } catch (IOException | RuntimeException e) {
            siblings.set(cpu);
        }
        return siblings;
    }
}
