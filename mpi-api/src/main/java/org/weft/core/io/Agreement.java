package org.weft.core.io;

import java.util.function.IntUnaryOperator;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.CreationCalls;
import org.weft.core.error.MpiErrors;

/**
 * How a collective call on a file fails: on every rank, never on one alone. A rank whose part fails (a write into
 * a full file system, a closed channel, a bad argument) still takes every step of the call that the others take,
 * so that nobody waits for a message it will never send, and the ranks then agree on the outcome: each rank that
 * failed throws its own error, every other rank an error of the lowest failing rank's class that names that rank.
 * The agreement rides on an exchange the call does anyway where there is one (the gather that opens a collective
 * access, {@link CollectiveAccess#of}); otherwise it is one small allgather ({@link #agree}). ROMIO ends its
 * collective writes with an allreduce of the error codes for the same reason.
 */
final class Agreement {
    private Agreement() {
    }

    /**
     * Collective over {@code comm}: returns if no rank failed; otherwise throws on every rank, {@code mine} where it
     * is not {@code null}. {@code what} says what failed ("cannot write FILE"), for the other ranks' message.
     */
    static void agree(Communicator comm, DeviceException mine, String what) {
        int[] classes = CreationCalls.allGather(comm, new int[] {mine == null ? 0 : mine.errorClass()});
        throwIfAnyFailed(comm.size(), r -> classes[r], mine, what);
    }

    /**
     * Throws {@code mine} if it is not {@code null}, else an error for the lowest rank whose error class
     * ({@code classOf}, 0 for none) says it failed, else returns.
     */
    static void throwIfAnyFailed(int ranks, IntUnaryOperator classOf, DeviceException mine, String what) {
        if (mine != null) {
            throw mine;
        }
        for (int r = 0; r < ranks; r++) {
            int errorClass = classOf.applyAsInt(r);
            if (errorClass != ErrorClass.SUCCESS) {
                throw MpiErrors.error(errorClass, what + ": rank " + r + " failed with "
                        + ErrorClass.name(errorClass));
            }
        }
    }
}
