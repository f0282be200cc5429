import mpi.MPI;
import mpi.MPIException;

/**
 * The classic cpi: pi as the integral of 4/(1+x^2) over [0,1] by the midpoint rule, the intervals dealt out
 * round-robin; rank 0 broadcasts the number of intervals and collects the partial sums with a reduction.
 */
public class Cpi {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int[] n = {args.length > 0 ? Integer.parseInt(args[0]) : 10_000};
        double start = MPI.wtime();
        MPI.COMM_WORLD.bcast(n, 1, MPI.INT, 0);
        double h = 1.0 / n[0];
        double sum = 0.0;
        for (int i = rank + 1; i <= n[0]; i += size) {
            double x = h * (i - 0.5);
            sum += 4.0 / (1.0 + x * x);
        }
        double[] mine = {h * sum};
        double[] pi = new double[1];
        MPI.COMM_WORLD.reduce(mine, pi, 1, MPI.DOUBLE, MPI.SUM, 0);
        if (rank == 0) {
            System.out.printf("pi is approximately %.16f, Error is %.16f%n", pi[0], Math.abs(pi[0] - Math.PI));
            System.out.printf("wall clock time = %f%n", MPI.wtime() - start);
        }
        MPI.Finalize();
    }
}
