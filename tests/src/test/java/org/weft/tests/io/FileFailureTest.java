package org.weft.tests.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Duration;

import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.weft.tests.comm.Worlds;

/**
 * A collective file call that fails on one rank fails on every rank, with the failing rank's error class, and the
 * ranks go on: a bad argument or a bad view on the last rank only (a heap buffer in a nonblocking collective among
 * them: the others hung before), and rank 1's file channel closed under it (its
 * handle on the file gone, {@code ERR_FILE}) in two-phase writes and reads where it is an aggregator, in
 * independent-path collective ones, in a sync. Before, the other ranks waited for the failed rank for ever (the
 * world's timeout fails the test with a thread dump). A real file system's failure (a full one) is
 * {@link FileFailureJobTest}'s.
 */
@Timeout(120)
class FileFailureTest {
    private static final int RUN = 64;
    private static final int BLOCKS = 40;

    @ParameterizedTest(name = "{0} ranks, {1}")
    @CsvSource({"2, default", "4, default", "4, tcp"})
    void aFailureOnOneRankFailsTheCollectiveOnEveryRank(int size, String methods, @TempDir Path dir)
            throws Exception {
        Worlds.of(size, methods).timeout(Duration.ofSeconds(60)).run(rank -> {
            Intracomm world = MPI.COMM_WORLD;
            int last = size - 1;
            int aggregator = 1; // at 4 ranks the last has no file domain (cut to alignment)
            Datatype filetype = Datatype.createResized(Datatype.createContiguous(RUN, MPI.BYTE), 0, size * RUN);
            filetype.commit();
            File f = new File(world, dir.resolve("bad").toString(), MPI.MODE_CREATE | MPI.MODE_RDWR,
                    hints("enable", "1000"));
            f.setView((long) rank * RUN, MPI.BYTE, filetype, "native");
            byte[] mine = data(rank);
            byte[] back = new byte[mine.length];
            int bad = rank == last ? -1 : 0;
            everyRankFails(MPI.ERR_ARG, last, rank, () -> f.writeAtAll(bad, mine, mine.length, MPI.BYTE));
            everyRankFails(MPI.ERR_BUFFER, last, rank,
                    () -> f.readAtAll(0, rank == last ? null : back, back.length, MPI.BYTE));
            everyRankFails(MPI.ERR_BUFFER, last, rank,
                    () -> f.writeOrdered(rank == last ? null : mine, mine.length, MPI.BYTE));
            everyRankFails(MPI.ERR_ARG, last, rank,
                    () -> f.setView(rank == last ? -RUN : 0, MPI.BYTE, filetype, "native"));
            // a nonblocking collective needs a direct buffer: the last rank's heap buffer fails it on every rank
            everyRankFails(MPI.ERR_BUFFER, last, rank, () -> f.iWriteAtAll(0, rank == last
                    ? ByteBuffer.wrap(mine) : ByteBuffer.allocateDirect(mine.length), mine.length, MPI.BYTE));
            everyRankFails(MPI.ERR_BUFFER, last, rank, () -> f.iReadAll(rank == last
                    ? ByteBuffer.wrap(back) : ByteBuffer.allocateDirect(back.length), back.length, MPI.BYTE));

            // the ranks go on, with the view they had
            f.writeAtAll(0, mine, mine.length, MPI.BYTE);
            assertEquals(mine.length, f.readAtAll(0, back, back.length, MPI.BYTE).getCount(MPI.BYTE));
            assertArrayEquals(mine, back);

            if (rank == aggregator) {
                closeChannelUnderneath(f);
            }
            everyRankFails(MPI.ERR_FILE, aggregator, rank, () -> f.writeAtAll(0, mine, mine.length, MPI.BYTE));
            everyRankFails(MPI.ERR_FILE, aggregator, rank, () -> f.readAtAll(0, back, back.length, MPI.BYTE));
            f.setInfo(hints("disable", null)); // each rank writes its own runs
            everyRankFails(MPI.ERR_FILE, aggregator, rank, () -> f.writeAtAll(0, mine, mine.length, MPI.BYTE));
            everyRankFails(MPI.ERR_FILE, aggregator, rank, () -> f.readAtAll(0, back, back.length, MPI.BYTE));
            everyRankFails(MPI.ERR_FILE, aggregator, rank, f::sync);
            f.close();

            // and the job goes on: a new file, written and read collectively
            File again = new File(world, dir.resolve("again").toString(), MPI.MODE_CREATE | MPI.MODE_RDWR,
                    hints("enable", "1000"));
            again.setView((long) rank * RUN, MPI.BYTE, filetype, "native");
            again.writeAtAll(0, mine, mine.length, MPI.BYTE);
            java.util.Arrays.fill(back, (byte) 0);
            assertEquals(mine.length, again.readAtAll(0, back, back.length, MPI.BYTE).getCount(MPI.BYTE));
            assertArrayEquals(mine, back);
            again.close();
            filetype.free();
        });
    }

    /** Hints that force two-phase I/O on or off, with windows of {@code buffer} bytes (several cycles). */
    static Info hints(String collectiveBuffering, String buffer) throws MPIException {
        Info hints = new Info();
        hints.set("romio_cb_write", collectiveBuffering);
        hints.set("romio_cb_read", collectiveBuffering);
        if (buffer != null) {
            hints.set("cb_buffer_size", buffer);
        }
        return hints;
    }

    private static byte[] data(int rank) {
        byte[] mine = new byte[BLOCKS * RUN];
        for (int i = 0; i < mine.length; i++) {
            mine[i] = (byte) (rank * 41 + i * 7 + 1);
        }
        return mine;
    }

    /**
     * {@code call} throws an error of {@code errorClass} on every rank: on rank {@code failing} its own, on the
     * others one that names the failing rank.
     */
    private static void everyRankFails(int errorClass, int failing, int rank, Executable call) {
        MPIException e = assertThrows(MPIException.class, call);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
        if (rank != failing) {
            assertTrue(e.getMessage().contains("rank " + failing + " failed"), e.getMessage());
        }
    }

    /**
     * Closes the channel through which this rank's {@code file} reads and writes, as an interrupt of a thread in a
     * channel call would: the rank's next accesses fail.
     */
    private static void closeChannelUnderneath(File file) throws Exception {
        Object open = field(file, "file");
        Object io = field(open, "io");
        ((FileChannel) field(io, "channel")).close();
    }

    private static Object field(Object owner, String name) throws ReflectiveOperationException {
        Field field = owner.getClass().getDeclaredField(name);
        field.setAccessible(true);
        return field.get(owner);
    }
}
