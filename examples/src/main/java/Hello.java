import mpi.MPI;
import mpi.MPIException;

/** Every rank says hello: the smallest MPI program. Run: {@code bin/weftrun -np 4 -cp examples/target/classes Hello}. */
public class Hello {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        System.out.println("Hello, world, I am " + rank + " of " + size + " on " + MPI.getProcessorName());
        MPI.Finalize();
    }
}
