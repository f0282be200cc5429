package org.weft.tests.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.comm.Worlds;

/**
 * MPI-IO (MPI chapter 13) on every size and method set of {@link Worlds}: opening with access modes and the
 * error classes of bad opens and accesses, size and hints, explicit offsets, individual file pointers, strided
 * views written and read independently and collectively (the file's bytes compared with what the views say),
 * shared file pointers, ordered, nonblocking and split-collective accesses.
 */
@Timeout(180)
class FileIoTest {
    private static final int N = 6;

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void openingModesSizesAndErrors(int size, String methods, @TempDir Path dir) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            accessModes(MPI.COMM_WORLD, rank, size, dir);
            sizesAndHints(MPI.COMM_WORLD, dir);
        });
    }

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void explicitOffsetsAndFilePointers(int size, String methods, @TempDir Path dir) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            explicitOffsets(MPI.COMM_WORLD, rank, size, dir.resolve("explicit"));
            individualPointers(MPI.COMM_WORLD, rank, size, dir.resolve("individual"));
        });
    }

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void stridedViewsIndependentAndCollective(int size, String methods, @TempDir Path dir) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            for (boolean collective : new boolean[] {true, false}) {
                interleavedBlocks(MPI.COMM_WORLD, rank, size, dir.resolve("blocks-" + collective), collective);
                vectorView(MPI.COMM_WORLD, rank, size, dir.resolve("vector-" + collective), collective);
            }
        });
    }

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void twoPhaseShortRunsAcrossBufferCycles(int size, String methods, @TempDir Path dir) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            int[] runs = {4, 12, 100, 256, 1000, 1024};
            String[] buffers = {"333", null, "333", null, "333", "4096"}; // windows of odd and even sizes, or 16 MiB
            for (int i = 0; i < runs.length; i++) {
                shortRuns(MPI.COMM_WORLD, rank, size, dir.resolve("runs-" + i), runs[i], buffers[i]);
            }
        });
    }

    /**
     * A collective write of 8 MiB a rank through a view of 256-byte runs, after a first one: two-phase I/O
     * sends slices of the rank's data and places them in the file's native window, so the rank's thread allocates
     * a small fraction of the data on the heap (requests and run lists, no data); before,
     * it grouped its pieces into one array, received into another and placed them into a third, 2.5 times the
     * data at 2 ranks.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4})
    void twoPhaseCopiesNoDataOnTheHeap(int size, @TempDir Path dir) throws Exception {
        Worlds.of(size, "default").run(rank -> {
            int run = 256;
            Datatype filetype = Datatype.createResized(Datatype.createContiguous(run, MPI.BYTE), 0, size * run);
            filetype.commit();
            byte[] mine = new byte[8 << 20];
            File f = new File(MPI.COMM_WORLD, dir.resolve("heap").toString(), MPI.MODE_CREATE | MPI.MODE_WRONLY);
            f.setView((long) rank * run, MPI.BYTE, filetype, "native");
            f.writeAtAll(0, mine, mine.length, MPI.BYTE);
            com.sun.management.ThreadMXBean threads =
                    (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            // The least of a few writes, as the timing varies. A write allocates ~10 KB (its requests, the run
            // lists); before the device stopped allocating on every pass over a peer whose ring was full, a rank
            // that waited allocated up to 9.3 MB a write (CI, fourth session), and two-phase's old copies were 2.5
            // times the data.
            long allocated = Long.MAX_VALUE;
            for (int write = 0; write < 4; write++) {
                long before = threads.getCurrentThreadAllocatedBytes();
                f.writeAtAll(0, mine, mine.length, MPI.BYTE);
                allocated = Math.min(allocated, threads.getCurrentThreadAllocatedBytes() - before);
            }
            assertTrue(allocated < mine.length / 32, "a two-phase write of " + mine.length + " bytes allocated at least "
                    + allocated + " bytes on the rank's heap");
            f.close();
            filetype.free();
        });
    }

    @ParameterizedTest(name = "{0} ranks, {1}")
    @MethodSource("org.weft.tests.comm.Worlds#sizesAndMethods")
    void sharedOrderedNonblockingAndSplit(int size, String methods, @TempDir Path dir) throws Exception {
        Worlds.of(size, methods).run(rank -> {
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            sharedPointer(MPI.COMM_WORLD, rank, size, dir.resolve("shared"));
            ordered(MPI.COMM_WORLD, rank, size, dir.resolve("ordered"));
            sequentialViews(MPI.COMM_WORLD, rank, size, dir.resolve("sequential"));
            nonblockingAndSplit(MPI.COMM_WORLD, rank, size, dir.resolve("split"));
            atomicMode(MPI.COMM_WORLD, rank, dir.resolve("atomic"), true);
            atomicCollectiveWrites(MPI.COMM_WORLD, rank, dir.resolve("atomic-collective"));
        });
    }

    // ------------------------------------------------------------------ opening

    private static void accessModes(Intracomm world, int rank, int size, Path dir) throws MPIException {
        String missing = dir.resolve("missing").toString();
        assertClass(MPI.ERR_NO_SUCH_FILE, () -> new File(world, missing, MPI.MODE_RDONLY));
        assertClass(MPI.ERR_AMODE, () -> new File(world, missing, MPI.MODE_RDONLY | MPI.MODE_CREATE));
        assertClass(MPI.ERR_AMODE, () -> new File(world, missing, MPI.MODE_RDWR | MPI.MODE_WRONLY));
        assertClass(MPI.ERR_AMODE, () -> new File(world, missing, MPI.MODE_CREATE));
        assertClass(MPI.ERR_NO_SUCH_FILE, () -> File.delete(missing));

        String name = dir.resolve("modes").toString();
        File f = new File(world, name, MPI.MODE_CREATE | MPI.MODE_EXCL | MPI.MODE_RDWR);
        assertEquals(MPI.MODE_CREATE | MPI.MODE_EXCL | MPI.MODE_RDWR, f.getAMode());
        assertEquals(size, f.getGroup().getSize());
        assertEquals(rank, f.getGroup().getRank());
        assertEquals(MPI.ERRORS_RETURN, f.getErrhandler(), "a file's default handler is ERRORS_RETURN");
        f.callErrhandler(MPI.ERR_OTHER); // returns under ERRORS_RETURN
        assertClass(MPI.ERR_UNSUPPORTED_DATAREP, () -> f.setView(0, MPI.BYTE, MPI.BYTE, "external32"));
        f.writeAt(rank, new byte[] {(byte) rank}, 1, MPI.BYTE);
        f.close();
        assertClass(MPI.ERR_FILE, () -> f.getSize());
        assertClass(MPI.ERR_FILE_EXISTS, () -> new File(world, name, MPI.MODE_CREATE | MPI.MODE_EXCL | MPI.MODE_RDWR));

        File readOnly = new File(world, name, MPI.MODE_RDONLY);
        assertClass(MPI.ERR_READ_ONLY, () -> readOnly.writeAt(0, new byte[1], 1, MPI.BYTE));
        assertClass(MPI.ERR_READ_ONLY, () -> readOnly.setSize(0));
        byte[] all = new byte[size];
        assertEquals(size, readOnly.readAt(0, all, size, MPI.BYTE).getCount(MPI.BYTE));
        for (int r = 0; r < size; r++) {
            assertEquals(r, all[r]);
        }
        readOnly.close();

        File writeOnly = new File(world, name, MPI.MODE_WRONLY | MPI.MODE_APPEND);
        assertEquals(size, writeOnly.getPosition(), "MODE_APPEND starts the pointers at the end");
        assertEquals(size, writeOnly.getPositionShared());
        assertClass(MPI.ERR_ACCESS, () -> writeOnly.readAt(0, new byte[1], 1, MPI.BYTE));
        writeOnly.close();

        File doomed = new File(world, name, MPI.MODE_RDWR | MPI.MODE_DELETE_ON_CLOSE);
        doomed.close();
        assertFalse(Files.exists(Path.of(name)), "MODE_DELETE_ON_CLOSE deletes the file at close");
        world.barrier();
    }

    private static void sizesAndHints(Intracomm world, Path dir) throws MPIException {
        String name = dir.resolve("sized").toString();
        Info hints = new Info();
        hints.set("cb_nodes", "2");
        File f = new File(world, name, MPI.MODE_CREATE | MPI.MODE_RDWR, hints);
        assertEquals("2", f.getInfo().get("cb_nodes"));
        Info more = new Info();
        more.set("striping_unit", "65536");
        f.setInfo(more);
        assertEquals("65536", f.getInfo().get("striping_unit"));
        f.setSize(100);
        assertEquals(100, f.getSize());
        f.setSize(10);
        assertEquals(10, f.getSize());
        f.preallocate(50);
        assertEquals(50, f.getSize());
        f.preallocate(20);
        assertEquals(50, f.getSize(), "preallocate never shrinks");
        assertClass(MPI.ERR_ARG, () -> f.setSize(-1));
        assertFalse(f.getAtomicity());
        f.setAtomicity(true);
        assertTrue(f.getAtomicity());
        f.sync();
        f.close();
        world.barrier();
        if (world.getRank() == 0) {
            File.delete(name);
        }
        world.barrier();
    }

    // ------------------------------------------------------------------ explicit offsets and pointers

    /**
     * Rank r writes ints r*N .. r*N+N-1 at its block, then reads its right neighbour's; a read past the end is
     * short.
     */
    private static void explicitOffsets(Intracomm world, int rank, int size, Path path) throws Exception {
        File f = new File(world, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        Status written = f.writeAt((long) rank * N * 4, block(rank), N, MPI.INT);
        assertEquals(N, written.getCount(MPI.INT));
        world.barrier();
        int right = (rank + 1) % size;
        int[] got = new int[N];
        assertEquals(N, f.readAt((long) right * N * 4, got, N, MPI.INT).getCount(MPI.INT));
        assertArrayEquals(block(right), got);
        IntBuffer direct = ByteBuffer.allocateDirect(4 * N).order(ByteOrder.nativeOrder()).asIntBuffer();
        f.readAt((long) right * N * 4, direct, N, MPI.INT);
        for (int i = 0; i < N; i++) {
            assertEquals(block(right)[i], direct.get(i));
        }
        int[] tail = new int[N];
        Status past = f.readAt((long) (size * N - 2) * 4, tail, N, MPI.INT);
        assertEquals(2, past.getCount(MPI.INT), "a read that crosses the end returns what lies before it");
        assertEquals(size * N * 4L, f.getSize());
        f.close();
        assertArrayEquals(expectedBlocks(size), fileInts(path));
        world.barrier();
    }

    private static void individualPointers(Intracomm world, int rank, int size, Path path) throws Exception {
        File f = new File(world, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        f.seek((long) rank * N, MPI.SEEK_SET);
        f.write(block(rank), N / 2, MPI.INT);
        assertEquals((long) rank * N + N / 2, f.getPosition());
        int[] rest = new int[N - N / 2];
        System.arraycopy(block(rank), N / 2, rest, 0, rest.length);
        f.writeAll(rest, rest.length, MPI.INT);
        assertEquals((long) (rank + 1) * N, f.getPosition());
        assertEquals((long) (rank + 1) * N * 4, f.getByteOffset(f.getPosition()));
        world.barrier();
        f.seek(-N, MPI.SEEK_CUR);
        int[] back = new int[N];
        assertEquals(N, f.readAll(back, N, MPI.INT).getCount(MPI.INT));
        assertArrayEquals(block(rank), back);
        f.seek(-1, MPI.SEEK_END);
        assertEquals((long) size * N - 1, f.getPosition());
        int[] last = new int[2];
        assertEquals(1, f.read(last, 2, MPI.INT).getCount(MPI.INT));
        assertEquals(size * N - 1, last[0]);
        assertClass(MPI.ERR_ARG, () -> f.seek(-1, MPI.SEEK_SET));
        f.close();
        assertArrayEquals(expectedBlocks(size), fileInts(path));
        world.barrier();
    }

    // ------------------------------------------------------------------ views

    /**
     * Blocks of B ints dealt round the ranks: rank r's view is a block of B ints every {@code size * B}, from int
     * {@code r * B}; each rank writes K blocks whose ints are their global index.
     */
    private static void interleavedBlocks(Intracomm world, int rank, int size, Path path, boolean collective)
            throws Exception {
        int blockInts = 3;
        int blocks = 4;
        Datatype filetype = Datatype.createResized(Datatype.createContiguous(blockInts, MPI.INT), 0,
                size * blockInts * 4);
        filetype.commit();
        int[] mine = new int[blocks * blockInts];
        for (int k = 0; k < blocks; k++) {
            for (int i = 0; i < blockInts; i++) {
                mine[k * blockInts + i] = (k * size + rank) * blockInts + i;
            }
        }
        File f = new File(world, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView((long) rank * blockInts * 4, MPI.INT, filetype, "native");
        assertEquals((long) rank * blockInts * 4, f.getView().getDisp());
        assertEquals(filetype, f.getView().getFileType());
        assertEquals(MPI.INT, f.getView().getEType());
        assertEquals("native", f.getView().getDataRep());
        Status s = collective ? f.writeAll(mine, mine.length, MPI.INT) : f.write(mine, mine.length, MPI.INT);
        assertEquals(mine.length, s.getCount(MPI.INT));
        assertEquals(mine.length, f.getPosition());
        assertEquals(((long) size * blockInts + rank * blockInts) * 4, f.getByteOffset(blockInts));
        world.barrier();
        int[] back = new int[mine.length];
        Status r = collective ? f.readAtAll(0, back, back.length, MPI.INT) : f.readAt(0, back, back.length, MPI.INT);
        assertEquals(mine.length, r.getCount(MPI.INT));
        assertArrayEquals(mine, back);
        f.close();
        int[] expected = new int[size * blocks * blockInts];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = i;
        }
        assertArrayEquals(expected, fileInts(path), "the file holds the blocks in global order");
        filetype.free();
        world.barrier();
    }

    /**
     * One int every {@code size} ints (a vector filetype), from int {@code rank}; the memory side is a vector too:
     * every other int of a buffer.
     */
    private static void vectorView(Intracomm world, int rank, int size, Path path, boolean collective)
            throws Exception {
        int count = 5;
        Datatype filetype = Datatype.createResized(Datatype.createVector(1, 1, size, MPI.INT), 0, size * 4);
        filetype.commit();
        Datatype everyOther = Datatype.createVector(count, 1, 2, MPI.INT);
        everyOther.commit();
        int[] memory = new int[2 * count];
        for (int i = 0; i < count; i++) {
            memory[2 * i] = i * size + rank;
            memory[2 * i + 1] = -1;
        }
        File f = new File(world, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(rank * 4L, MPI.INT, filetype, "native");
        if (collective) {
            f.writeAtAll(0, memory, 1, everyOther);
        } else {
            f.writeAt(0, memory, 1, everyOther);
        }
        world.barrier();
        int[] back = new int[count];
        Status r = collective ? f.readAll(back, count, MPI.INT) : f.read(back, count, MPI.INT);
        assertEquals(count, r.getCount(MPI.INT));
        for (int i = 0; i < count; i++) {
            assertEquals(i * size + rank, back[i]);
        }
        f.close();
        int[] expected = new int[size * count];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = i;
        }
        assertArrayEquals(expected, fileInts(path));
        filetype.free();
        everyOther.free();
        world.barrier();
    }

    /**
     * Blocks of {@code run} bytes dealt round the ranks, 7 per rank but 5 for rank 0 (when there are others), so
     * that windows have holes, written collectively by two-phase I/O (forced by the hints) into a file rank 0
     * filled with 0x55 first, with windows of {@code buffer} bytes (ROMIO's {@code cb_buffer_size}; default when
     * {@code null}): every block lands, the holes keep 0x55, and the blocks read back collectively and
     * independently.
     */
    private static void shortRuns(Intracomm world, int rank, int size, Path path, int run, String buffer)
            throws Exception {
        int blocks = 7;
        int written = rank == 0 && size > 1 ? blocks - 2 : blocks;
        Datatype filetype = Datatype.createResized(Datatype.createContiguous(run, MPI.BYTE), 0, size * run);
        filetype.commit();
        Info hints = new Info();
        hints.set("romio_cb_write", "enable");
        hints.set("romio_cb_read", "enable");
        if (buffer != null) {
            hints.set("cb_buffer_size", buffer);
        }
        File f = new File(world, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR, hints);
        byte[] fill = new byte[size * blocks * run];
        java.util.Arrays.fill(fill, (byte) 0x55);
        if (rank == 0) {
            f.writeAt(0, fill, fill.length, MPI.BYTE);
        }
        world.barrier();
        f.setView((long) rank * run, MPI.BYTE, filetype, "native");
        byte[] mine = new byte[written * run];
        for (int k = 0; k < written; k++) {
            for (int i = 0; i < run; i++) {
                mine[k * run + i] = blockByte(k * size + rank, i);
            }
        }
        assertEquals(mine.length, f.writeAtAll(0, mine, mine.length, MPI.BYTE).getCount(MPI.BYTE));
        world.barrier();
        byte[] back = new byte[mine.length];
        assertEquals(mine.length, f.readAtAll(0, back, back.length, MPI.BYTE).getCount(MPI.BYTE));
        assertArrayEquals(mine, back, "read back collectively, runs of " + run + ", buffer " + buffer);
        back = new byte[mine.length];
        f.readAt(0, back, back.length, MPI.BYTE);
        assertArrayEquals(mine, back, "read back independently, runs of " + run + ", buffer " + buffer);
        f.close();
        for (int b = 0; b < size * blocks; b++) {
            boolean hole = size > 1 && b % size == 0 && b / size >= blocks - 2;
            for (int i = 0; i < run; i++) {
                fill[b * run + i] = hole ? 0x55 : blockByte(b, i);
            }
        }
        assertArrayEquals(fill, Files.readAllBytes(path), "the file, runs of " + run + ", buffer " + buffer);
        filetype.free();
        world.barrier();
    }

    private static byte blockByte(int block, int i) {
        return (byte) (block * 31 + i * 7 + 1);
    }

    // ------------------------------------------------------------------ shared, ordered, nonblocking, split

    /** Each rank appends the pair (rank, rank) through the shared pointer: every pair lands once, somewhere. */
    private static void sharedPointer(Intracomm world, int rank, int size, Path path) throws Exception {
        File f = new File(world, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        assertEquals(2, f.writeShared(new int[] {rank, rank}, 2, MPI.INT).getCount(MPI.INT));
        world.barrier();
        assertEquals(2L * size, f.getPositionShared());
        f.seekShared(0, MPI.SEEK_SET);
        int[] pair = new int[2];
        assertEquals(2, f.readShared(pair, 2, MPI.INT).getCount(MPI.INT));
        assertEquals(pair[0], pair[1], "a shared read gets one rank's whole pair");
        world.barrier();
        assertEquals(2L * size, f.getPositionShared());
        f.close();
        int[] ints = fileInts(path);
        assertEquals(2 * size, ints.length);
        boolean[] seen = new boolean[size];
        for (int p = 0; p < size; p++) {
            assertEquals(ints[2 * p], ints[2 * p + 1]);
            assertFalse(seen[ints[2 * p]]);
            seen[ints[2 * p]] = true;
        }
        world.barrier();
    }

    /** Rank r writes r+1 copies of r in rank order, twice (the second time after a shared seek to the end). */
    private static void ordered(Intracomm world, int rank, int size, Path path) throws Exception {
        File f = new File(world, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, MPI.INT, "native");
        int[] mine = new int[rank + 1];
        java.util.Arrays.fill(mine, rank);
        assertEquals(rank + 1, f.writeOrdered(mine, mine.length, MPI.INT).getCount(MPI.INT));
        f.writeOrderedBegin(mine, mine.length, MPI.INT);
        assertEquals(rank + 1, f.writeOrderedEnd(mine).getCount(MPI.INT));
        int total = size * (size + 1) / 2;
        assertEquals(2L * total, f.getPositionShared());
        f.seekShared(total, MPI.SEEK_SET);
        int[] back = new int[rank + 1];
        f.readOrdered(back, back.length, MPI.INT);
        assertArrayEquals(mine, back);
        f.close();
        int[] ints = fileInts(path);
        int at = 0;
        for (int copy = 0; copy < 2; copy++) {
            for (int r = 0; r < size; r++) {
                for (int i = 0; i <= r; i++) {
                    assertEquals(r, ints[at++]);
                }
            }
        }
        world.barrier();
    }

    /**
     * A MODE_SEQUENTIAL file's view starts where the shared pointer is ({@code MPI.DISPLACEMENT_CURRENT}, MPI 4.1
     * §14.3): after an ordered write of 2 ints a rank through a view of ints, a view of int pairs from there; the
     * next ordered write lands after the first. A file not opened MODE_SEQUENTIAL refuses it on every rank.
     */
    private static void sequentialViews(Intracomm world, int rank, int size, Path path) throws Exception {
        File f = new File(world, path.toString(), MPI.MODE_CREATE | MPI.MODE_WRONLY | MPI.MODE_SEQUENTIAL);
        f.setView(0, MPI.INT, MPI.INT, "native");
        f.writeOrdered(new int[] {rank, rank}, 2, MPI.INT);
        Datatype pair = Datatype.createContiguous(2, MPI.INT);
        pair.commit();
        f.setView(MPI.DISPLACEMENT_CURRENT, pair, pair, "native");
        assertEquals(2L * 4 * size, f.getByteOffset(0), "the view starts after the ints written");
        assertEquals(0, f.getPositionShared());
        f.writeOrdered(new int[] {-rank, -rank}, 1, pair);
        f.close();
        int[] ints = fileInts(path);
        assertEquals(4 * size, ints.length);
        for (int r = 0; r < size; r++) {
            assertEquals(r, ints[2 * r]);
            assertEquals(-r, ints[2 * size + 2 * r + 1]);
        }
        File plain = new File(world, path.toString(), MPI.MODE_RDWR);
        assertClass(MPI.ERR_ARG, () -> plain.setView(MPI.DISPLACEMENT_CURRENT, MPI.INT, MPI.INT, "native"));
        plain.close();
        pair.free();
        world.barrier();
    }

    private static void nonblockingAndSplit(Intracomm world, int rank, int size, Path path) throws Exception {
        File f = new File(world, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        IntBuffer out = ByteBuffer.allocateDirect(4 * N).order(ByteOrder.nativeOrder()).asIntBuffer();
        out.put(block(rank)).clear();
        Request w = f.iWriteAt((long) rank * N * 4, out, N, MPI.INT);
        assertEquals(N, w.waitStatus().getCount(MPI.INT));
        assertClass(MPI.ERR_BUFFER, () -> f.iWriteAt(0, IntBuffer.wrap(new int[1]), 1, MPI.INT));
        world.barrier();
        IntBuffer in = ByteBuffer.allocateDirect(4 * N).order(ByteOrder.nativeOrder()).asIntBuffer();
        int right = (rank + 1) % size;
        assertEquals(N, f.iReadAtAll((long) right * N * 4, in, N, MPI.INT).waitStatus().getCount(MPI.INT));
        for (int i = 0; i < N; i++) {
            assertEquals(block(right)[i], in.get(i));
        }
        int[] split = new int[N];
        f.readAtAllBegin((long) rank * N * 4, split, N, MPI.INT);
        assertClass(MPI.ERR_OTHER, () -> f.readAtAllBegin(0, split, N, MPI.INT));
        assertEquals(N, f.readAtAllEnd(split).getCount(MPI.INT));
        assertArrayEquals(block(rank), split);
        assertClass(MPI.ERR_OTHER, () -> f.readAtAllEnd(split));
        f.writeAtAllBegin((long) rank * N * 4, block(rank), N, MPI.INT);
        assertEquals(N, f.writeAtAllEnd(block(rank)).getCount(MPI.INT));
        f.close();
        assertArrayEquals(expectedBlocks(size), fileInts(path));
        world.barrier();
    }

    /**
     * In atomic mode, ranks 0 and 1 overwrite the same strided ints (64 blocks: 64 system calls a write) with their
     * own value again and again while every rank reads them all: each read sees one writer's whole write.
     */
    static void atomicMode(Intracomm world, int rank, Path path, boolean atomic) throws Exception {
        int blocks = 64;
        int blockInts = 4;
        Datatype filetype = Datatype.createResized(Datatype.createContiguous(blockInts, MPI.INT), 0,
                2 * blockInts * 4);
        filetype.commit();
        File f = new File(world, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setView(0, MPI.INT, filetype, "native");
        f.setAtomicity(atomic);
        int[] mine = new int[blocks * blockInts];
        java.util.Arrays.fill(mine, rank + 1);
        if (rank == 0) {
            f.writeAt(0, mine, mine.length, MPI.INT);
        }
        world.barrier();
        int[] seen = new int[mine.length];
        for (int round = 0; round < 40; round++) {
            if (rank < 2) {
                f.writeAt(0, mine, mine.length, MPI.INT);
            }
            f.readAt(0, seen, seen.length, MPI.INT);
            for (int value : seen) {
                assertEquals(seen[0], value, "a read saw parts of two writes");
            }
        }
        f.close();
        filetype.free();
        world.barrier();
    }

    /**
     * In atomic mode a collective write is atomic too (MPI 4.1 §14.6.1): ranks 0 and 1 overwrite the same strided
     * ints (256 blocks: 256 system calls a write when not aggregated) in one {@code writeAtAll}, with aggregation
     * off and on; afterwards the file holds one writer's whole write, never blocks of both (before, the ranks wrote
     * their runs of a collective write that was not aggregated without the lock an independent write takes).
     */
    static void atomicCollectiveWrites(Intracomm world, int rank, Path path) throws Exception {
        int blocks = 256;
        int blockInts = 4;
        Datatype filetype = Datatype.createResized(Datatype.createContiguous(blockInts, MPI.INT), 0,
                2 * blockInts * 4);
        filetype.commit();
        int[] mine = new int[rank < 2 ? blocks * blockInts : 0];
        java.util.Arrays.fill(mine, rank + 1);
        int[] seen = new int[blocks * blockInts];
        for (String aggregation : new String[] {"disable", "enable"}) {
            Info hints = new Info();
            hints.set("romio_cb_write", aggregation);
            File f = new File(world, path.toString(), MPI.MODE_CREATE | MPI.MODE_RDWR, hints);
            f.setView(0, MPI.INT, filetype, "native");
            f.setAtomicity(true);
            for (int round = 0; round < 40; round++) {
                f.writeAtAll(0, mine, mine.length, MPI.INT);
                f.readAt(0, seen, seen.length, MPI.INT);
                for (int value : seen) {
                    assertEquals(seen[0], value, "a collective write in atomic mode (romio_cb_write=" + aggregation
                            + ") left parts of two writes in round " + round);
                }
            }
            f.close();
            hints.free();
        }
        filetype.free();
        world.barrier();
    }

    // ------------------------------------------------------------------ helpers

    private static int[] block(int rank) {
        int[] block = new int[N];
        for (int i = 0; i < N; i++) {
            block[i] = rank * N + i;
        }
        return block;
    }

    private static int[] expectedBlocks(int size) {
        int[] all = new int[size * N];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return all;
    }

    /** The file's bytes as native-order ints, as C would read them. */
    static int[] fileInts(Path path) throws IOException {
        IntBuffer ints = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.nativeOrder()).asIntBuffer();
        int[] all = new int[ints.remaining()];
        ints.get(all);
        return all;
    }

    private static void assertClass(int errorClass, Executable call) {
        MPIException e = assertThrows(MPIException.class, call);
        assertEquals(errorClass, e.getErrorClass(), e.getMessage());
    }
}
