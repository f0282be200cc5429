package org.weft.launcher.plan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One application context of a job, as {@code mpirun} has them ({@code mpirun -np 2 a : -np 2 b}, or a line of an
 * appfile): how many ranks run which program. A job is one or more app contexts laid out in order over its ranks
 * (the first context's ranks first); they share one {@code MPI_COMM_WORLD} and each rank learns its context's
 * index as {@code MPI.APPNUM}.
 *
 * @param np how many ranks run this program
 * @param classPath the program's class path entries (the jar, in {@code -jar} mode)
 * @param mainClass the class whose {@code main} the ranks run
 * @param programArgs the program's arguments, untouched
 * @param jvmArgs JVM options for these ranks, after the job's own ({@code -J}, a {@code java} command's options)
 * @param environment variables for these ranks only ({@code -x} in the app context), over the job's
 */
public record AppContext(int np, List<String> classPath, String mainClass, List<String> programArgs,
                         List<String> jvmArgs, Map<String, String> environment) {
    public AppContext {
        if (np < 1) {
            throw new IllegalArgumentException("-np must be at least 1, not " + np);
        }
        classPath = List.copyOf(classPath);
        programArgs = List.copyOf(programArgs);
        jvmArgs = List.copyOf(jvmArgs);
        environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    }

    /** An app context without variables of its own. */
    public AppContext(int np, List<String> classPath, String mainClass, List<String> programArgs,
                      List<String> jvmArgs) {
        this(np, classPath, mainClass, programArgs, jvmArgs, Map.of());
    }

    /** The same program with another number of ranks. */
    public AppContext withNp(int otherNp) {
        return new AppContext(otherNp, classPath, mainClass, programArgs, jvmArgs, environment);
    }
}
