package org.weft.tests.programs;

import java.nio.LongBuffer;

import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

/**
 * Every rank contends for rank 0's lock on a window in shared memory ({@code MPI.newByteBuffer}): {@code args[0]}
 * times it takes the exclusive lock to read a counter, add one and write it back (yielding in between now and
 * then, so that the others find the lock taken), and every fifth time also takes a shared lock to read the counter,
 * which must never go back. Run with more ranks than cores, a waiter that spun without end would hold off the
 * holder it waits for; the job's timeout catches that. Rank 0 prints {@code counter C of N}.
 */
public final class ContendedLocks {
    private ContendedLocks() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int rounds = Integer.parseInt(args[0]);
        LongBuffer memory = MPI.newByteBuffer(8).asLongBuffer();
        Win win = new Win(memory, 1, 8, MPI.INFO_NULL, MPI.COMM_WORLD);
        LongBuffer value = MPI.newByteBuffer(8).asLongBuffer();
        long seen = 0;
        MPI.COMM_WORLD.barrier();
        for (int i = 0; i < rounds; i++) {
            win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
            win.get(value, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            win.flush(0);
            if (i % 10 == 0) {
                Thread.yield();
            }
            value.put(0, value.get(0) + 1);
            win.put(value, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
            win.unlock(0);
            if (i % 5 == 0) {
                win.lock(MPI.LOCK_SHARED, 0, 0);
                win.get(value, 1, MPI.LONG, 0, 0, 1, MPI.LONG);
                win.unlock(0);
                if (value.get(0) < seen) {
                    throw new AssertionError("rank " + rank + " read " + value.get(0) + " after " + seen);
                }
                seen = value.get(0);
            }
        }
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            System.out.println("counter " + memory.get(0) + " of " + (long) rounds * size);
        }
        win.free();
        MPI.Finalize();
    }
}
