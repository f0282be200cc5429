package org.weft.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.DerivedTypes;
import org.weft.core.datatype.TypeDescriptor;

/**
 * Independent noncontiguous access makes few system calls: a strided read of 100 000 ints is served by data
 * sieving in a handful of reads, not one per element; a strided write is one call per block, and contiguous
 * blocks that touch merge into one.
 */
class ChannelIoTest {
    private static final TypeDescriptor INT = TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1);
    private static final int INTS = 100_000;

    @TempDir
    Path dir;

    @Test
    void aStridedReadIsAHandfulOfReadsNotOnePerElement() throws IOException {
        Path path = dir.resolve("ints");
        ByteBuffer all = ByteBuffer.allocate(4 * 2 * INTS).order(java.nio.ByteOrder.nativeOrder());
        for (int i = 0; i < 2 * INTS; i++) {
            all.putInt(i);
        }
        Files.write(path, all.array());
        try (CountingChannel channel = new CountingChannel(FileChannel.open(path, StandardOpenOption.READ))) {
            // every other int of the file, from int 1: a vector of one int with stride 2
            TypeDescriptor everyOther = DerivedTypes.resized(DerivedTypes.vector(1, 1, 2, INT), 0, 8);
            everyOther.commit();
            ViewLayout view = new ViewLayout(4, INT, everyOther);
            MemorySegment target = MemorySegment.ofArray(new int[INTS]);
            long got = new ChannelIo(channel).readView(view, 0, 4L * INTS, target);
            assertEquals(4L * INTS, got);
            for (int i = 0; i < INTS; i++) {
                assertEquals(2 * i + 1, target.getAtIndex(ValueLayout.JAVA_INT, i));
            }
            assertTrue(channel.reads <= 4, channel.reads + " reads for " + INTS + " strided ints");
        }
    }

    @Test
    void aStridedWriteIsOneCallPerBlockAndTouchingBlocksMerge() throws IOException {
        Path path = dir.resolve("blocks");
        try (CountingChannel channel = new CountingChannel(FileChannel.open(path, StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE))) {
            TypeDescriptor blocks = DerivedTypes.resized(DerivedTypes.contiguous(8, INT), 0, 64);
            blocks.commit();
            ChannelIo io = new ChannelIo(channel);
            MemorySegment data = MemorySegment.ofArray(new byte[4 * 8 * 10]);
            io.writeView(new ViewLayout(0, INT, blocks), 0, data);
            assertEquals(10, channel.writes, "ten blocks of 8 ints with gaps: ten writes");
            channel.writes = 0;
            io.writeView(new ViewLayout(0, INT, INT), 0, data);
            assertEquals(1, channel.writes, "a contiguous view: one write");
        }
    }

    /** A file channel that counts its positional reads and writes (one system call each). */
    private static final class CountingChannel extends FileChannel {
        private final FileChannel inner;
        int reads;
        int writes;

        CountingChannel(FileChannel inner) {
            this.inner = inner;
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            reads++;
            return inner.read(dst, position);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            writes++;
            return inner.write(src, position);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            throw new UnsupportedOperationException("positional calls only");
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) {
            throw new UnsupportedOperationException("positional calls only");
        }

        @Override
        public int write(ByteBuffer src) {
            throw new UnsupportedOperationException("positional calls only");
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            throw new UnsupportedOperationException("positional calls only");
        }

        @Override
        public long position() throws IOException {
            return inner.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            inner.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return inner.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            inner.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            inner.force(metaData);
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return inner.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            return inner.transferFrom(src, position, count);
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return inner.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return inner.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return inner.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            inner.close();
        }
    }
}
