package org.weft.tests.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.ErrorOnInvalidObject;

/**
 * Errors under {@code COMM_WORLD}'s default handler ({@code ERRORS_ARE_FATAL}) in real jobs: an error on
 * {@code MPI_COMM_NULL} or on a freed communicator, datatype or request is raised on {@code COMM_WORLD} (MPI-3.1
 * §8.3) and aborts the job with the error class as its exit code, whatever handler the object had, and
 * {@code callErrhandler} aborts likewise; the rank says which call failed on what.
 */
class ErrorHandlerJobTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "comm-null       | 5  | Comm.getRank on MPI_COMM_NULL failed: MPI_ERR_COMM: the communicator is MPI_COMM_NULL",
        "freed-comm      | 5  | Comm.send on a freed communicator failed: MPI_ERR_COMM",
        "freed-type      | 3  | MPI_Type_get_extent failed: MPI_ERR_TYPE",
        "freed-request   | 7  | MPI_Start failed: MPI_ERR_REQUEST: the persistent request has been freed",
        "call-errhandler | 13 | MPI_Comm_call_errhandler on MPI_COMM_WORLD failed: MPI_ERR_ARG"})
    void anErrorUnderTheDefaultHandlerAbortsTheJobWithItsClass(String error, int errorClass, String message)
            throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "2", ErrorOnInvalidObject.class.getName(), error)
                .timeout(Duration.ofSeconds(60)).start();
        assertFalse(result.stdout().contains("SURVIVED"), result.output());
        assertEquals(errorClass, result.exitCode(), result.output());
        String raisedOn = error.equals("call-errhandler") ? "" : "raised on MPI_COMM_WORLD, ";
        assertTrue(result.stderr().contains("Weft: rank 1 of 2: " + message), result.output());
        assertTrue(result.stderr().contains("(" + raisedOn + "error handler MPI.ERRORS_ARE_FATAL: aborting the job)"),
                result.output());
    }
}
