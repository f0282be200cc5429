package org.weft.tests.datatype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.weft.tests.comm.Worlds;

/**
 * Datatype attributes ({@code MPI_Type_create_keyval} … {@code MPI_Type_delete_attr}): values stored by value
 * (behaviours.md item 13), copied to a {@code dup}, deleted on one type only, still readable after the keyval is
 * freed but no longer settable, and {@code ERR_KEYVAL} for keyvals never handed out. The ranks of a world share
 * one JVM and so the predefined {@code MPI.INT} object: each rank sets its own value on it and must read back its
 * own after a barrier, so attributes of one rank never show on another.
 */
@Timeout(60)
class DatatypeAttributesTest {
    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#twoGroupSizesAndMethods")
    void attributesAreCachedPerTypeAndPerProcess(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            int keyval = Datatype.createKeyval();
            int other = Datatype.createKeyval();
            assertNull(MPI.INT.getAttr(keyval), "nothing set yet");

            MPI.INT.setAttr(keyval, "int of rank " + rank);
            MPI.COMM_WORLD.barrier();
            assertEquals("int of rank " + rank, MPI.INT.getAttr(keyval), "each process has its own attributes");

            int[] value = {rank, 1};
            MPI.INT.setAttr(other, value);
            value[1] = 99;
            Object read = MPI.INT.getAttr(other);
            assertArrayEquals(new int[] {rank, 1}, (int[]) read, "stored by value");
            assertNotSame(read, MPI.INT.getAttr(other), "every get returns a fresh copy");
            MPI.INT.deleteAttr(other);
            assertNull(MPI.INT.getAttr(other));

            Datatype pair = Datatype.createContiguous(2, MPI.INT);
            pair.commit();
            assertNull(pair.getAttr(keyval), "a new type has no attributes");
            pair.setAttr(keyval, 10 * rank);
            Datatype copy = pair.dup();
            assertEquals(10 * rank, copy.getAttr(keyval), "dup copies the attributes");
            pair.deleteAttr(keyval);
            assertNull(pair.getAttr(keyval));
            assertEquals(10 * rank, copy.getAttr(keyval), "deleting on the original leaves the copy's");

            Datatype.freeKeyval(keyval);
            assertEquals(10 * rank, copy.getAttr(keyval), "a freed keyval's values stay readable");
            assertEquals(MPI.ERR_KEYVAL, assertThrows(MPIException.class, () -> copy.setAttr(keyval, 1))
                    .getErrorClass(), "a freed keyval cannot be set");
            assertEquals(MPI.ERR_KEYVAL, assertThrows(MPIException.class, () -> copy.getAttr(keyval + 1000))
                    .getErrorClass(), "a keyval never handed out");
            assertEquals(MPI.ERR_KEYVAL, assertThrows(MPIException.class, () -> Datatype.freeKeyval(keyval))
                    .getErrorClass(), "freed twice");
            MPI.INT.deleteAttr(keyval);
            Datatype.freeKeyval(other);
            pair.free();
            copy.free();
        });
    }
}
