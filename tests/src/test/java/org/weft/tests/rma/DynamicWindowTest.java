package org.weft.tests.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.comm.Worlds;

/**
 * Dynamic windows ({@code MPI_Win_create_dynamic}, {@code MPI_Win_attach}, {@code MPI_Win_detach}) on every size
 * and method set of {@link Worlds}: two buffers attached at each process lie at displacements 0 and 16 of its attach
 * space (the second after the first's 16 bytes); puts and gets under fence, accumulates under a lock, land in the
 * right buffer; after a detach an access there changes nothing and a get reads zeros; the error classes of attach
 * and detach.
 */
@Timeout(180)
class DynamicWindowTest {
    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void attachedBuffersAreTheWindow(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            int next = (rank + 1) % size;
            int previous = (rank + size - 1) % size;
            Win win = new Win(MPI.INFO_NULL, world);
            win.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.WIN_FLAVOR_DYNAMIC, win.getAttr(MPI.WIN_CREATE_FLAVOR));
            IntBuffer first = OneSidedTest.ints(4); // displacement 0
            IntBuffer second = OneSidedTest.ints(3); // displacement 16
            win.attach(first, 4);
            win.attach(second, 3);

            win.fence(0);
            win.put(OneSidedTest.ints(1).put(0, 100 + rank), 1, MPI.INT, next, 4, 1, MPI.INT);
            win.put(OneSidedTest.ints(2).put(0, rank).put(1, -rank), 2, MPI.INT, next, 16 + 4, 2, MPI.INT);
            win.fence(0);
            assertEquals(100 + previous, first.get(1));
            assertEquals(previous, second.get(1));
            assertEquals(-previous, second.get(2));
            IntBuffer got = OneSidedTest.ints(2);
            win.get(got, 2, MPI.INT, previous, 16 + 4, 2, MPI.INT); // what this rank put at its previous's
            win.fence(0);
            assertEquals(size == 1 ? rank : (previous + size - 1) % size, got.get(0));

            win.lock(MPI.LOCK_SHARED, next, 0);
            win.accumulate(OneSidedTest.ints(1).put(0, 5), 1, MPI.INT, next, 16, 1, MPI.INT, MPI.SUM);
            win.unlock(next);
            world.barrier();
            assertEquals(5, second.get(0));

            win.detach(first);
            world.barrier();
            win.fence(0);
            win.put(OneSidedTest.ints(1).put(0, 999), 1, MPI.INT, next, 4, 1, MPI.INT); // nothing attached there
            IntBuffer gone = OneSidedTest.ints(1).put(0, -1);
            win.get(gone, 1, MPI.INT, next, 0, 1, MPI.INT);
            win.fence(0);
            assertEquals(100 + previous, first.get(1), "a put after the detach changed nothing");
            assertEquals(0, gone.get(0), "a get where nothing is attached reads zeros");
            errors(win, world, second);
            win.detach(second);
            win.free();
        });
    }

    private static void errors(Win win, Intracomm world, IntBuffer attached) throws MPIException {
        OneSidedTest.expect(MPI.ERR_RMA_ATTACH, () -> win.attach(attached, 3)); // attached already
        OneSidedTest.expect(MPI.ERR_RMA_ATTACH, () -> win.detach(OneSidedTest.ints(1))); // never attached
        OneSidedTest.expect(MPI.ERR_BUFFER, () -> win.attach(IntBuffer.allocate(2), 2)); // not direct
        IntBuffer memory = OneSidedTest.ints(2);
        Win fixed = new Win(memory, 2, 4, MPI.INFO_NULL, world);
        fixed.setErrhandler(MPI.ERRORS_RETURN);
        OneSidedTest.expect(MPI.ERR_RMA_FLAVOR, () -> fixed.attach(OneSidedTest.ints(1), 1));
        fixed.free();
    }
}
