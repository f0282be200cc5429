package org.weft.bench.path;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.op.PredefinedOp;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.TypeDescriptor;

/**
 * A reduction schedule's first step in this thread's CPU time, not wall time, so that a machine loaded by other
 * work still shows the difference: copying the send buffer into recv and then combining the received block into
 * it (what the schedules did), against combining the received block and the send buffer straight into recv
 * ({@link Combiner#combineInto}, what they do now). Float SUM; the received block is a heap segment, send and recv
 * native, as in a job with direct buffers. The two alternate, {@code rounds} times each, and each round's CPU
 * nanoseconds per call are pooled; prints per size the median and 10th percentile of both and their ratio.
 * Usage: {@code ReductionStepCpu [floats...]} (default 1024 16384 262144), in one JVM, no MPI.
 */
public final class ReductionStepCpu {
    private static final int ROUNDS = 41;

    private ReductionStepCpu() {
    }

    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[] {1024, 16384, 262144}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        Combiner sum = PredefinedOp.SUM.bind(TypeDescriptor.predefined("MPI_FLOAT", BaseType.FLOAT, 1));
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        System.out.printf("# floats  copy+combine median/p10 (ns)  combineInto median/p10 (ns)  ratio of medians%n");
        for (int floats : sizes) {
            long bytes = 4L * floats;
            MemorySegment received = MemorySegment.ofArray(new byte[(int) bytes]);
            MemorySegment send = Arena.ofAuto().allocate(bytes, 64);
            MemorySegment recv = Arena.ofAuto().allocate(bytes, 64);
            int calls = (int) Math.max(20, (64L << 20) / bytes); // about 64 MiB of operands a round
            long[] before = new long[ROUNDS];
            long[] now = new long[ROUNDS];
            for (int warm = 0; warm < 3; warm++) {
                round(cpu, calls, () -> copyThenCombine(sum, received, send, recv, floats));
                round(cpu, calls, () -> sum.combineInto(received, send, recv, floats));
            }
            for (int r = 0; r < ROUNDS; r++) {
                before[r] = round(cpu, calls, () -> copyThenCombine(sum, received, send, recv, floats));
                now[r] = round(cpu, calls, () -> sum.combineInto(received, send, recv, floats));
            }
            Arrays.sort(before);
            Arrays.sort(now);
            System.out.printf("%-9d %14d / %-14d %14d / %-14d %.2f%n", floats, before[ROUNDS / 2], before[ROUNDS / 10],
                    now[ROUNDS / 2], now[ROUNDS / 10], (double) now[ROUNDS / 2] / before[ROUNDS / 2]);
        }
    }

    private static void copyThenCombine(Combiner sum, MemorySegment received, MemorySegment send, MemorySegment recv,
                                        int floats) {
        MemorySegment.copy(send, 0, recv, 0, 4L * floats);
        sum.combine(received, recv, floats);
    }

    /** This thread's CPU nanoseconds per call of {@code step} over {@code calls} calls. */
    private static long round(ThreadMXBean cpu, int calls, Runnable step) {
        long start = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < calls; i++) {
            step.run();
        }
        return (cpu.getCurrentThreadCpuTime() - start) / calls;
    }
}
