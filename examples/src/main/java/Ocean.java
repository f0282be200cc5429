import mpi.MPIException;

/**
 * The ocean of the coupled model ({@link CoupledModel}): {@code weftrun -np 2 Ocean : -np 2 Atmosphere}.
 */
public class Ocean {
    public static void main(String[] args) throws MPIException {
        CoupledModel.run(CoupledModel.Component.OCEAN, args);
    }
}
