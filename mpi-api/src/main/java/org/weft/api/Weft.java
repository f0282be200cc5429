package org.weft.api;

import mpi.MPIException;
import org.weft.adi.DeviceException;
import org.weft.adi.DeviceReport;
import org.weft.core.RuntimeBinding;

/**
 * Weft-specific calls a program may make between {@code MPI.Init} and {@code MPI.Finalize} (the papers' enquiry
 * functions). Programs that use them no longer run on other MPIs; everything else stays in package {@code mpi}.
 */
public final class Weft {
    private Weft() {
    }

    /**
     * This process's feedback: for each world rank the communication method used to reach it ({@code null} where it
     * was never addressed), and per method the RSRs and bytes sent and delivered and the polls that found work.
     */
    public static DeviceReport report() throws MPIException {
        try {
            return RuntimeBinding.runtime().device().report();
        } catch (DeviceException e) {
            throw new MPIException(e);
        }
    }
}
