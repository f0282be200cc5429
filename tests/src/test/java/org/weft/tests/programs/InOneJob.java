package org.weft.tests.programs;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import mpi.MPI;

/**
 * Several test programs in one job, one after the other between barriers, under one {@code MPI.Init} and
 * {@code MPI.Finalize}: a test that checks several programs on the same layout of ranks pays for one job's start
 * instead of one per program (most of a small job's time). Each program named has a
 * {@code public static void run(String[] args)}: its {@code main} without {@code Init} and {@code Finalize}; a
 * program that fails throws, and the job fails with it.
 *
 * <p>Arguments: {@code PROGRAM [ARG...] [+ PROGRAM [ARG...]]...}, each {@code PROGRAM} the simple name of a class
 * in this package.
 */
public final class InOneJob {
    private static final String NEXT = "+";

    private InOneJob() {
    }

    public static void main(String[] args) throws Throwable {
        MPI.Init(args);
        for (List<String> program : programs(args)) {
            MPI.COMM_WORLD.barrier(); // nothing of the one before reaches into the next
            Class<?> main = Class.forName(InOneJob.class.getPackageName() + "." + program.getFirst());
            String[] arguments = program.subList(1, program.size()).toArray(String[]::new);
            try {
                main.getMethod("run", String[].class).invoke(null, (Object) arguments);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
        MPI.Finalize();
    }

    /** The programs and their arguments, split at {@value #NEXT}. */
    static List<List<String>> programs(String[] args) {
        List<List<String>> programs = new ArrayList<>();
        List<String> current = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals(NEXT)) {
                programs.add(current);
                current = new ArrayList<>();
            } else {
                current.add(arg);
            }
        }
        programs.add(current);
        programs.removeIf(List::isEmpty);
        if (programs.isEmpty()) {
            throw new IllegalArgumentException("usage: InOneJob PROGRAM [ARG...] [+ PROGRAM [ARG...]]... (got "
                    + Arrays.toString(args) + ")");
        }
        return programs;
    }
}
