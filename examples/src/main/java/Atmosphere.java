import mpi.MPIException;

/**
 * The atmosphere of the coupled model ({@link CoupledModel}): {@code weftrun -np 2 Ocean : -np 2 Atmosphere}.
 */
public class Atmosphere {
    public static void main(String[] args) throws MPIException {
        CoupledModel.run(CoupledModel.Component.ATMOSPHERE, args);
    }
}
