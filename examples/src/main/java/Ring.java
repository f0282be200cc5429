import mpi.MPI;
import mpi.MPIException;

/**
 * Open MPI's ring example: rank 0 sends a counter around the ring; each time it comes back to rank 0 it is
 * decremented, and when it reaches zero every rank passes it on once more and stops.
 */
public class Ring {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int tag = 201;
        int[] message = new int[1];
        if (rank == 0) {
            message[0] = args.length > 0 ? Integer.parseInt(args[0]) : 10;
            System.out.println("Process 0 sending " + message[0] + " to " + next + ", tag " + tag
                    + " (" + size + " processes in ring)");
            MPI.COMM_WORLD.send(message, 1, MPI.INT, next, tag);
            System.out.println("Process 0 sent to " + next);
        }
        while (true) {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, tag);
            if (rank == 0) {
                message[0]--;
                System.out.println("Process 0 decremented value: " + message[0]);
            }
            MPI.COMM_WORLD.send(message, 1, MPI.INT, next, tag);
            if (message[0] == 0) {
                System.out.println("Process " + rank + " exiting");
                break;
            }
        }
        if (rank == 0) {
            MPI.COMM_WORLD.recv(message, 1, MPI.INT, prev, tag);
        }
        MPI.Finalize();
    }
}
