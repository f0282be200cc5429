package org.weft.core.rma;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.weft.adi.SharedMemory;

/**
 * The memory of {@code MPI.newByteBuffer} (and the other {@code MPI.new*Buffer}s) on a host where ranks share
 * memory: blocks of files in the job directory ({@link SharedMemory}), which the other ranks of the host can map.
 * A window over such a buffer is then a window in shared memory ({@link SharedWindow}): an origin of the host
 * puts, gets and accumulates with its own loads and stores, no message and no thread at the target. Java cannot
 * give a buffer that {@code ByteBuffer.allocateDirect} made to another process, so windows over those keep
 * messages.
 *
 * <p>Blocks are powers of two from 64 bytes in chunks of {@link #CHUNK_BYTES} (a file of {@code /dev/shm} holds
 * memory only for the pages written); a buffer larger than {@link #LARGEST_BLOCK} has a file of its own, unmapped
 * and removed when the buffer is collected. A collected buffer's block goes back to its size's free list. Chunk
 * files keep their names while this runtime lives (a window may be made over a buffer at any time) and lose them
 * at {@code MPI_Finalize}; the launcher removes the job directory anyway.
 */
public final class SharedBuffers {
    static final long CHUNK_BYTES = 64L << 20;
    static final long LARGEST_BLOCK = 16L << 20;
    private static final int SMALLEST_SHIFT = 6;
    private static final long PAGE = 4096;
    /** One thread for the JVM, parked until a buffer is collected. */
    private static final Cleaner CLEANER = Cleaner.create();
    /** Heaps of this JVM (several in-JVM ranks may share a pid): with the pid, a name unique on the host. */
    private static final AtomicInteger HEAPS = new AtomicInteger();
    private static final int PID = (int) ProcessHandle.current().pid();

    /** Where a block lies: the file (named by its process, heap and serial; {@link #fileBytes} long), the offset. */
    record Location(int pid, int heap, int serial, long fileBytes, long offset) {
        String name() {
            return chunkName(pid, heap, serial);
        }
    }

    /** {@code kept}: one of the heap's chunks of {@link #CHUNK_BYTES}, not a large buffer's file of its own. */
    private record Chunk(int serial, String name, MemorySegment memory, Arena arena, boolean kept) {
        boolean holds(MemorySegment m) {
            return m.address() >= memory.address()
                    && m.address() + m.byteSize() <= memory.address() + memory.byteSize();
        }
    }

    /** A peer's chunk mapped here ({@link #peerChunk}). */
    private record PeerChunk(int pid, int heap, int serial, MemorySegment memory) {
    }

    private final SharedMemory shared;
    /** Peers' chunks mapped into this process, looked up without a lock. */
    private volatile PeerChunk[] peerChunks = new PeerChunk[0];
    private final int heap = HEAPS.incrementAndGet();
    private final List<Chunk> chunks = new ArrayList<>();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<MemorySegment>[] free = new ArrayDeque[Long.numberOfTrailingZeros(LARGEST_BLOCK) + 1];
    private volatile Chunk[] known = new Chunk[0];
    private Chunk current;
    private long next;
    private int serial;
    private boolean closed;

    /** A heap in {@code shared}, or none ({@code shared == null}: every buffer is an ordinary direct one). */
    public SharedBuffers(SharedMemory shared) {
        this.shared = shared;
    }

    /** A native-order direct buffer of {@code capacity} bytes, in shared memory when the host has it. */
    public ByteBuffer newByteBuffer(int capacity) {
        MemorySegment block = capacity > 0 && shared != null ? allocate(capacity) : null;
        if (block == null) {
            return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
        }
        ByteBuffer buffer = block.asSlice(0, capacity).asByteBuffer().order(ByteOrder.nativeOrder());
        // Slices, duplicates and views of the buffer reach it (their attachment), so it is collected last.
        CLEANER.register(buffer, () -> release(block));
        return buffer;
    }

    /** Where {@code memory} lies in this heap's files, or {@code null} if it is not all in one of them. */
    Location locate(MemorySegment memory) {
        if (!memory.isNative() || memory.byteSize() == 0) {
            return null;
        }
        for (Chunk chunk : known) {
            if (chunk.holds(memory)) {
                return new Location(PID, heap, chunk.serial, chunk.memory.byteSize(),
                        memory.address() - chunk.memory.address());
            }
        }
        return null;
    }

    /**
     * The serial of this heap's chunk of {@link #CHUNK_BYTES} that holds all of {@code memory}, or 0 if none does (a
     * buffer of a file of its own, removed when the buffer is collected, or not of this heap): a peer may then map
     * the chunk ({@link #peerChunk}) and copy into and out of the buffer with its own loads and stores. Allocates
     * nothing.
     */
    public int chunkOf(MemorySegment memory) {
        if (!memory.isNative() || memory.byteSize() == 0) {
            return 0;
        }
        for (Chunk chunk : known) {
            if (chunk.kept && chunk.holds(memory)) {
                return chunk.serial;
            }
        }
        return 0;
    }

    /** The offset of {@code memory} in this heap's chunk {@code serial} ({@link #chunkOf}). */
    public long offsetIn(int serial, MemorySegment memory) {
        for (Chunk chunk : known) {
            if (chunk.serial == serial) {
                return memory.address() - chunk.memory.address();
            }
        }
        throw new IllegalArgumentException("no chunk " + serial + " in this heap");
    }

    /** This heap's id: with {@link #processId}, the name of its chunks on the host. */
    public int heapId() {
        return heap;
    }

    /** This process's id, as a heap's chunks name it. */
    public static int processId() {
        return PID;
    }

    /**
     * Chunk {@code serial} of {@code pid}'s heap {@code heapId} ({@link #chunkOf}), mapped into this process once and
     * kept while it lives (chunks of {@link #CHUNK_BYTES} keep their names while their runtime lives); {@code null}
     * when it cannot be mapped (its name gone: the peer finalized). Allocates nothing once mapped.
     */
    public MemorySegment peerChunk(int pid, int heapId, int serial) {
        PeerChunk[] mapped = peerChunks;
        for (PeerChunk chunk : mapped) {
            if (chunk.serial == serial && chunk.heap == heapId && chunk.pid == pid) {
                return chunk.memory;
            }
        }
        return mapPeerChunk(pid, heapId, serial);
    }

    private synchronized MemorySegment mapPeerChunk(int pid, int heapId, int serial) {
        for (PeerChunk chunk : peerChunks) {
            if (chunk.serial == serial && chunk.heap == heapId && chunk.pid == pid) {
                return chunk.memory;
            }
        }
        if (shared == null) {
            return null;
        }
        try {
            MemorySegment memory = shared.open(chunkName(pid, heapId, serial), CHUNK_BYTES, Arena.global());
            PeerChunk[] grown = java.util.Arrays.copyOf(peerChunks, peerChunks.length + 1);
            grown[grown.length - 1] = new PeerChunk(pid, heapId, serial, memory);
            peerChunks = grown;
            return memory;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A block of at least {@code bytes} bytes for the runtime's own use, given back with {@link #release}. */
    synchronized MemorySegment allocate(long bytes) {
        if (closed) {
            return null;
        }
        try {
            if (bytes > LARGEST_BLOCK) {
                return newChunk((bytes + PAGE - 1) / PAGE * PAGE, Arena.ofShared()).memory;
            }
            int shift = Math.max(SMALLEST_SHIFT, 64 - Long.numberOfLeadingZeros(bytes - 1));
            ArrayDeque<MemorySegment> list = free[shift];
            if (list != null && !list.isEmpty()) {
                return list.pop().fill((byte) 0); // new memory is zeroed, as allocateDirect's
            }
            long size = 1L << shift;
            long at = (next + size - 1) & -size; // aligned to its size, so a block never straddles a page needlessly
            if (current == null || at + size > CHUNK_BYTES) {
                current = newChunk(CHUNK_BYTES, Arena.global()); // kept: its buffers check no liveness
                at = 0;
            }
            next = at + size;
            return current.memory.asSlice(at, size);
        } catch (IOException | RuntimeException e) {
            System.err.println("weft: buffers of this process stay private (windows over them use messages):"
                    + " cannot make a shared-memory file (" + e.getMessage() + ")");
            closed = true;
            return null;
        }
    }

    /** Gives a block back: to its size's free list, or (a file of its own) unmapped and removed. */
    synchronized void release(MemorySegment block) {
        long bytes = block.byteSize();
        if (bytes > LARGEST_BLOCK) {
            for (int i = 0; i < chunks.size(); i++) {
                Chunk chunk = chunks.get(i);
                if (chunk.memory.address() == block.address()) {
                    chunks.remove(i);
                    known = chunks.toArray(Chunk[]::new);
                    shared.remove(chunk.name);
                    chunk.arena.close();
                    return;
                }
            }
            return;
        }
        int shift = Long.numberOfTrailingZeros(bytes);
        if (free[shift] == null) {
            free[shift] = new ArrayDeque<>();
        }
        free[shift].push(block);
    }

    /** Removes the files' names ({@code MPI_Finalize}): the mappings stay, no window is made any more. */
    public synchronized void close() {
        closed = true;
        for (Chunk chunk : chunks) {
            shared.remove(chunk.name);
        }
    }

    private static String chunkName(int pid, int heap, int serial) {
        return "heap-" + pid + "-" + heap + "-" + serial;
    }

    private Chunk newChunk(long bytes, Arena arena) throws IOException {
        String name = chunkName(PID, heap, ++serial);
        MemorySegment memory;
        try {
            memory = shared.create(name, bytes, arena);
        } catch (IOException | RuntimeException e) {
            if (arena != Arena.global()) {
                arena.close();
            }
            throw e;
        }
        Chunk chunk = new Chunk(serial, name, memory, arena, arena == Arena.global());
        chunks.add(chunk);
        known = chunks.toArray(Chunk[]::new);
        return chunk;
    }
}
