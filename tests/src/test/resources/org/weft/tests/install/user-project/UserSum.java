import mpi.MPI;
import mpi.MPIException;

/** A user's program: every rank adds its rank + 1, rank 0 prints the sum and the world's size. */
public class UserSum {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int[] mine = {MPI.COMM_WORLD.getRank() + 1};
        int[] sum = new int[1];
        MPI.COMM_WORLD.allReduce(mine, sum, 1, MPI.INT, MPI.SUM);
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.out.println("user sum " + sum[0] + " over " + MPI.COMM_WORLD.getSize() + " ranks");
        }
        MPI.Finalize();
    }
}
