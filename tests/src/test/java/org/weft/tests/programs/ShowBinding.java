package org.weft.tests.programs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.stream.Stream;
import mpi.MPI;
import mpi.MPIException;

/**
 * Each rank prints {@code RANK R CPUS LISTS}: the distinct CPU lists ({@code Cpus_allowed_list}) of every thread of
 * its JVM after {@code MPI.Init}, so a test sees whether the whole process is bound, and where; and {@code RANK R
 * MAIN LIST}, its MPI thread's own.
 */
public final class ShowBinding {
    public static void main(String[] args) throws MPIException, IOException {
        MPI.Init(args);
        TreeSet<String> lists = new TreeSet<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    Files.readAllLines(task.resolve("status")).stream()
                            .filter(line -> line.startsWith("Cpus_allowed_list:"))
                            .forEach(line -> lists.add(line.substring(line.indexOf(':') + 1).strip()));
                } catch (IOException ended) {
                    // a thread that ended while we looked
                }
            }
        }
        String main = Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:"))
                .map(line -> line.substring(line.indexOf(':') + 1).strip()).findFirst().orElseThrow();
        int rank = MPI.COMM_WORLD.getRank();
        System.out.println("RANK " + rank + " CPUS " + String.join(" ", lists) + "\nRANK " + rank + " MAIN " + main);
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }

    private ShowBinding() {
    }
}
