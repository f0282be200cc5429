package org.weft.tests.programs;

import mpi.MPI;

/**
 * One rank dies after {@code MPI.Init} while the others wait for a message that never comes; it says
 * {@code RANK r DIES} first.
 * Arguments: {@code RANK HOW} where HOW is {@code halt} ({@code Runtime.halt(3)}), {@code throw} (an uncaught
 * exception), {@code kill} (SIGKILL to itself) or {@code fatal} (a send to a rank that does not exist, under the
 * default {@code MPI.ERRORS_ARE_FATAL}).
 */
public final class DieAfterInit {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int victim = Integer.parseInt(args[0]);
        int rank = MPI.COMM_WORLD.getRank();
        MPI.COMM_WORLD.barrier();
        if (rank == victim) {
            System.out.println("RANK " + rank + " DIES"); // for the test to time the job's end from here
            System.out.flush();
            Thread.sleep(200); // time for the line to pass an mpirun's forwarding before the rank is gone
            switch (args[1]) {
                case "halt" -> Runtime.getRuntime().halt(3);
                case "throw" -> throw new IllegalStateException("rank " + rank + " fails on purpose");
                case "kill" -> new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid()))
                        .start().waitFor();
                case "fatal" -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, MPI.COMM_WORLD.getSize(), 0);
                default -> throw new IllegalArgumentException(args[1]);
            }
        }
        MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 1);
        MPI.Finalize();
    }

    private DieAfterInit() {
    }
}
