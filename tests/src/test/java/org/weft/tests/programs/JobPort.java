package org.weft.tests.programs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * One side of two jobs that meet through a port whose name goes through a file: {@code accept FILE} (rank 0 opens
 * a port and writes its name to FILE; all accept) or {@code connect FILE} (rank 0 waits for FILE; all connect; rank
 * 0 first tries the name with its token altered and prints {@code WRONG TOKEN class C}); or through a name both
 * jobs' weftruns share ({@code --names DIR}): {@code publish SERVICE} and {@code lookup SERVICE}. Over the intercommunicator
 * each side sums the other's world ranks plus 100 x its ranks' count and prints {@code SIDE s rank R remote N sum
 * X}. Under {@code ERRORS_RETURN} a failed accept prints {@code ACCEPT FAILED class C} and the job ends cleanly.
 */
public final class JobPort {
    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
        boolean published = args[0].equals("publish") || args[0].equals("lookup"); // a name, not a file
        boolean accepting = args[0].equals("accept") || args[0].equals("publish");
        Path file = Path.of(args[1]);
        int rank = MPI.COMM_WORLD.getRank();
        Intercomm other;
        String port = null;
        if (accepting) {
            if (rank == 0) {
                port = Intracomm.openPort();
                if (published) {
                    Intracomm.publishName(args[1], port);
                } else {
                    Path written = Path.of(file + ".tmp");
                    Files.writeString(written, port);
                    Files.move(written, file, StandardCopyOption.ATOMIC_MOVE);
                }
            }
            try {
                other = MPI.COMM_WORLD.accept(port, 0);
            } catch (MPIException e) {
                if (rank == 0) {
                    System.out.println("ACCEPT FAILED class " + e.getErrorClass() + ": " + e.getMessage());
                }
                MPI.Finalize();
                return;
            }
        } else {
            if (rank == 0) {
                port = published ? lookUp(args[1]) : awaitPort(file);
                tryWrongToken(port);
            }
            other = MPI.COMM_WORLD.connect(port, 0);
        }
        int size = MPI.COMM_WORLD.getSize();
        int[] sum = new int[1];
        other.allReduce(new int[] {rank + 100}, sum, 1, MPI.INT, MPI.SUM);
        System.out.println("SIDE " + args[0] + " rank " + rank + " size " + size + " remote "
                + other.getRemoteSize() + " sum " + sum[0]);
        other.disconnect();
        if (port != null && accepting) {
            if (published) {
                Intracomm.unpublishName(args[1], port);
            }
            Intracomm.closePort(port);
        }
        MPI.Finalize();
    }

    public static String awaitPort(Path file) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                throw new IOException("no port name in " + file + " within 60 s");
            }
            Thread.sleep(20);
        }
        return Files.readString(file, StandardCharsets.UTF_8).trim();
    }

    /** The port published under {@code service} (by another job: looked up until it is there, up to 60 s). */
    private static String lookUp(String service) throws MPIException, InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            try {
                return Intracomm.lookupName(service);
            } catch (MPIException e) {
                if (e.getErrorClass() != MPI.ERR_NAME || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
    }

    private static void tryWrongToken(String port) {
        int at = port.lastIndexOf('/') + 5; // a character inside the token
        String altered = port.substring(0, at) + (port.charAt(at) == 'A' ? 'B' : 'A') + port.substring(at + 1);
        try {
            MPI.COMM_SELF.connect(altered, 0);
            System.out.println("WRONG TOKEN class none");
        } catch (MPIException e) {
            System.out.println("WRONG TOKEN class " + e.getErrorClass() + ": " + e.getMessage());
        }
    }

    private JobPort() {
    }
}
