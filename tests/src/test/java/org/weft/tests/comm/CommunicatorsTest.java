package org.weft.tests.comm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import mpi.Comm;
import mpi.Group;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Communicators (MPI chapter 7): dup, split, create, createGroup, compare, free, attributes, info, names and error
 * handlers, on every size and method set of {@link Worlds}. Each check sends traffic on the new communicators
 * with the same tags as on their parents, so a context shared by mistake shows as a wrong value.
 */
@Timeout(120)
class CommunicatorsTest {
    private static final int TAG = 7;

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void communicatorsKeepTheirTrafficApart(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            dupSeparatesTraffic(world, rank, size);
            splitByColourAndKey(world, rank, size);
            createForSubsets(world, rank, size);
            manyDupsAndFreesOnSubsets(world, rank, size);
            compareResults(world, size);
        });
    }

    @ParameterizedTest(name = "{0} ranks")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void attributesInfoNamesAndErrors(int size, String methods) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            attributesAreCopiedByValueOnDup(world);
            infoAndNames(world);
            badInput(world, size);
        });
    }

    /** Messages on a dup and on its parent with the same tag, interleaved, reach the matching receives. */
    private static void dupSeparatesTraffic(Intracomm world, int rank, int size) throws MPIException {
        Intracomm dup = world.dup();
        assertEquals(MPI.ERRORS_RETURN, dup.getErrhandler(), "a dup inherits the error handler");
        assertEquals(MPI.CONGRUENT, Comm.compare(world, dup));
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        // Send on the dup first, then on world: a receive on world must not take the dup's message.
        Request toWorld = world.iSend(intBuffer(1000 + rank), 1, MPI.INT, right, TAG);
        Request toDup = dup.iSend(intBuffer(2000 + rank), 1, MPI.INT, right, TAG);
        int[] fromWorld = new int[1];
        int[] fromDup = new int[1];
        world.recv(fromWorld, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
        dup.recv(fromDup, 1, MPI.INT, left, TAG);
        assertEquals(1000 + left, fromWorld[0]);
        assertEquals(2000 + left, fromDup[0]);
        toWorld.waitFor();
        toDup.waitFor();
        dup.barrier();
        dup.free();
        assertTrue(dup.isNull());
    }

    /** Colours rank % 3 (rank 1 UNDEFINED), key reversing the order. */
    private static void splitByColourAndKey(Intracomm world, int rank, int size) throws MPIException {
        int colour = rank == 1 ? MPI.UNDEFINED : rank % 3;
        Intracomm part = world.split(colour, size - rank);
        if (colour == MPI.UNDEFINED) {
            assertTrue(part.isNull(), "UNDEFINED gives a null communicator, not Java null");
            return;
        }
        int[] members = IntStream.range(0, size).filter(r -> r != 1 && r % 3 == colour).toArray();
        int[] expectedOrder = IntStream.range(0, members.length).map(i -> members[members.length - 1 - i])
                .toArray();
        assertEquals(members.length, part.getSize());
        assertEquals(indexOf(expectedOrder, rank), part.getRank());
        int[] gathered = {rank};
        int[] sum = new int[1];
        part.allReduce(gathered, sum, 1, MPI.INT, MPI.SUM);
        assertEquals(IntStream.of(members).sum(), sum[0], "the allreduce sums exactly the colour's ranks");
        int[] translated = Group.translateRanks(part.getGroup(), IntStream.range(0, members.length).toArray(),
                world.getGroup());
        assertArrayEquals(expectedOrder, translated);
        part.free();
    }

    /** create and createGroup for the even ranks; odd ranks get null communicators. */
    private static void createForSubsets(Intracomm world, int rank, int size) throws MPIException {
        Group evens = world.getGroup().rangeIncl(new int[][] {{0, size - 1, 2}});
        Intracomm created = world.create(evens);
        Intracomm byGroup = rank % 2 == 0 ? world.createGroup(evens, 3) : null;
        if (rank % 2 != 0) {
            assertTrue(created.isNull());
            return;
        }
        assertEquals(rank / 2, created.getRank());
        assertEquals(evens.getSize(), byGroup.getSize());
        assertEquals(MPI.CONGRUENT, Comm.compare(created, byGroup));
        ring(created);
        ring(byGroup);
        created.free();
        byGroup.free();
    }

    /**
     * Dups and frees in a pattern that differs between subsets, so that the processes' free masks differ: the
     * agreed ids must still be common and their traffic separate.
     */
    private static void manyDupsAndFreesOnSubsets(Intracomm world, int rank, int size) throws MPIException {
        Intracomm half = world.split(rank % 2, rank);
        List<Intracomm> kept = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Intracomm d = half.dup();
            if (i % (2 + rank % 2) == 0) {
                d.free();
            } else {
                kept.add(d);
            }
        }
        Intracomm fromWorld = world.dup();
        for (Intracomm c : kept) {
            ring(c);
        }
        ring(fromWorld);
        for (Intracomm c : kept) {
            c.free();
        }
        fromWorld.free();
        half.free();
    }

    private static void compareResults(Intracomm world, int size) throws MPIException {
        assertEquals(MPI.IDENT, Comm.compare(world, world));
        Intracomm reversed = world.split(0, size - world.getRank());
        assertEquals(size == 1 ? MPI.CONGRUENT : MPI.SIMILAR, Comm.compare(world, reversed));
        assertEquals(size == 1 ? MPI.CONGRUENT : MPI.UNEQUAL, Comm.compare(world, MPI.COMM_SELF));
        reversed.free();
    }

    private static void attributesAreCopiedByValueOnDup(Intracomm world) throws MPIException {
        int keyval = Comm.createKeyval();
        ArrayList<String> value = new ArrayList<>(List.of("a", "b"));
        world.setAttr(keyval, value);
        value.add("changed after set");
        Object got = world.getAttr(keyval);
        assertEquals(List.of("a", "b"), got);
        assertNotSame(got, world.getAttr(keyval), "getAttr returns a copy");
        Intracomm dup = world.dup();
        assertEquals(List.of("a", "b"), dup.getAttr(keyval), "the dup has the attribute");
        dup.deleteAttr(keyval);
        assertNull(dup.getAttr(keyval));
        assertEquals(List.of("a", "b"), world.getAttr(keyval), "deleting on the dup leaves the parent alone");
        world.deleteAttr(keyval);
        Comm.freeKeyval(keyval);
        assertEquals(Integer.MAX_VALUE, world.getAttr(MPI.TAG_UB));
        assertEquals(MPI.ERR_KEYVAL, assertThrows(MPIException.class, () -> world.getAttr(4242)).getErrorClass());
        assertEquals(MPI.ERR_KEYVAL, assertThrows(MPIException.class, () -> world.setAttr(MPI.TAG_UB, 1))
                .getErrorClass());
        dup.free();
    }

    private static void infoAndNames(Intracomm world) throws MPIException {
        assertEquals("MPI_COMM_WORLD", world.getName());
        Info info = new Info();
        info.set("weft_hint", "yes");
        Intracomm dup = world.dupWithInfo(info);
        info.set("weft_hint", "changed");
        assertEquals("yes", dup.getInfo().get("weft_hint"));
        assertEquals(1, dup.getInfo().size());
        assertEquals("", dup.getName());
        dup.setName("mine");
        assertEquals("mine", dup.getName());
        assertEquals(MPI.ERR_INFO_NOKEY, assertThrows(MPIException.class, () -> info.delete("absent"))
                .getErrorClass());
        dup.free();
    }

    private static void badInput(Intracomm world, int size) throws MPIException {
        Intracomm dup = world.dup();
        dup.free();
        assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class, dup::getSize).getErrorClass());
        assertEquals(MPI.ERR_COMM, assertThrows(MPIException.class, world::free).getErrorClass());
        assertEquals(size, world.getSize(), "COMM_WORLD stays usable");
        Group group = world.getGroup();
        assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class, () -> group.incl(new int[] {size}))
                .getErrorClass());
        assertEquals(MPI.ERR_RANK, assertThrows(MPIException.class,
                () -> Group.translateRanks(group, new int[] {-5}, group)).getErrorClass());
        assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class,
                () -> group.rangeIncl(new int[][] {{0, 0, 0}})).getErrorClass());
        group.free();
        assertEquals(MPI.ERR_GROUP, assertThrows(MPIException.class, group::getSize).getErrorClass());
        assertEquals(0, MPI.GROUP_EMPTY.getSize());
        assertEquals(MPI.UNDEFINED, MPI.GROUP_EMPTY.getRank());
        assertFalse(world.isInter());
    }

    /** A ring shift on {@code comm}, with the same tag the parents use. */
    static void ring(Intracomm comm) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        int[] got = new int[1];
        Status status = comm.sendRecv(new int[] {rank * 10}, 1, MPI.INT, (rank + 1) % size, TAG,
                got, 1, MPI.INT, (rank + size - 1) % size, TAG);
        assertEquals(((rank + size - 1) % size) * 10, got[0]);
        assertEquals((rank + size - 1) % size, status.getSource());
    }

    private static java.nio.IntBuffer intBuffer(int value) {
        java.nio.IntBuffer b = MPI.newIntBuffer(1);
        b.put(0, value);
        return b;
    }

    private static int indexOf(int[] values, int v) {
        return IntStream.range(0, values.length).filter(i -> values[i] == v).findFirst().orElse(-1);
    }
}
