package org.weft.mm.module.nativempi;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;
import org.weft.mm.spi.MalformedRsrException;
import org.weft.mm.spi.RsrSink;

/**
 * Takes RSRs off the module's communicator through a ring of pre-posted {@code MPI_Irecv}s (any source, the RSR
 * tag), each into its own native slot as large as the largest RSR the module accepts ({@code nativempi_max_rsr}),
 * and hands each body to the sink as a window of one view over all the slots (no copy on the Java side, and the
 * same buffer every time, so the layers above keep their view of it instead of making one per RSR), then posts
 * that slot again.
 *
 * <p>Why pre-posted receives: an arriving message matches a posted receive at once, where a probe first parks it in
 * libmpi's unexpected queue and copies it again at the receive; measured in C on Open MPI 4.1
 * ({@code benchmarks/src/main/c/receive-strategies.c}) a spin on {@code MPI_Test} of a posted receive costs 0.14–0.16
 * µs one-way against 0.25–0.43 µs for {@code MPI_Improbe} + {@code MPI_Mrecv}.
 *
 * <p>Order: all receives have the same source (any) and tag, so libmpi matches arriving messages to them in posting
 * order, which per sender is that sender's order (MPI's non-overtaking rule). Only the oldest slot is tested: a
 * later one that completed first waits for it, so RSRs are delivered in matching order. One poller at a time (the
 * module holds a token).
 */
final class Receiver {
    private final LibMpi mpi;
    private final long comm;
    private final RsrSink sink;
    private final Consumer<String> log;
    private final Arena arena = Arena.ofShared();
    private final int slots;
    private final int slotBytes;
    private final MemorySegment requests;
    /** One view per slot of its entry in {@link #requests}, made once. */
    private final MemorySegment[] requestCells;
    private final MemorySegment[] buffers;
    /** Bytes from one slot's start to the next's: {@link #slotBytes} rounded up to a cache line. */
    private final int stride;
    /** One view over all the slots, slot {@code i} at {@code i * stride}. */
    private final ByteBuffer bodies;
    private final MemorySegment flag;
    private final MemorySegment status;
    /** The oldest posted slot: the next to complete in matching order. */
    private int head;
    /**
     * Delivered slots not posted again yet, {@code unposted} of them from {@code firstUnposted} on in ring order: a
     * slot is posted again at the start of the next poll, not after its delivery, so that the {@code MPI_Irecv}
     * is off the path from an arrival to the program's reply (the next poll comes while the program waits).
     */
    private int firstUnposted;
    private int unposted;
    /** Whether the last poll found nothing: the next RSR then ends its poll (see {@link #poll}). */
    private boolean drained = true;

    Receiver(LibMpi mpi, long comm, RsrSink sink, int slots, long slotBytes, Consumer<String> log) {
        this.mpi = mpi;
        this.comm = comm;
        this.sink = sink;
        this.log = log;
        this.slots = slots;
        this.slotBytes = Math.toIntExact(slotBytes);
        long handleSize = mpi.flavour().handleLayout().byteSize();
        this.requests = arena.allocate(handleSize * slots, 8);
        this.requestCells = new MemorySegment[slots];
        this.buffers = new MemorySegment[slots];
        this.stride = Math.toIntExact((slotBytes + 63) & ~63L); // each slot starts on a cache line
        MemorySegment block = arena.allocate((long) stride * slots, 64);
        this.bodies = block.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN); // NativeMpiConfig keeps it within 2 GiB
        this.flag = arena.allocate(JAVA_INT);
        this.status = arena.allocate(mpi.flavour().statusSize(), 8);
        for (int slot = 0; slot < slots; slot++) {
            requestCells[slot] = requests.asSlice(slot * handleSize, handleSize);
            buffers[slot] = block.asSlice((long) slot * stride, slotBytes);
            post(slot);
        }
    }

    /**
     * Delivers up to {@code budget} RSRs that have arrived, in order; returns how many. The caller holds the token.
     *
     * <p>An RSR that arrives when the last poll found none is delivered alone: testing the next slot first is one
     * more {@code MPI_Test}, with its pass through libmpi's progress, between the arrival and the program's answer
     * (a ping-pong's receiver), as the shm ring reader found. A poll that finds more waiting takes up to the budget.
     */
    int poll(int budget) {
        postDelivered();
        int limit = drained ? 1 : budget;
        int delivered = 0;
        while (delivered < limit && unposted < slots) { // an unposted head slot has no receive to test
            mpi.check("MPI_Test", mpi.test(requestCells[head], flag, status));
            if (flag.get(JAVA_INT, 0) == 0) {
                break;
            }
            int slot = head;
            head = head + 1 == slots ? 0 : head + 1;
            if (unposted++ == 0) {
                firstUnposted = slot;
            }
            deliver(slot, receivedBytes());
            delivered++;
        }
        drained = delivered == 0;
        return delivered;
    }

    private void postDelivered() {
        for (; unposted > 0; unposted--) {
            post(firstUnposted);
            firstUnposted = firstUnposted + 1 == slots ? 0 : firstUnposted + 1;
        }
    }

    /** Read from the status: a receive of at most a slot's bytes, so it fits an int. */
    private int receivedBytes() {
        return (int) mpi.flavour().receivedBytes(status);
    }

    private void post(int slot) {
        mpi.check("MPI_Irecv", mpi.irecv(buffers[slot], slotBytes, mpi.flavour().anySource(), RsrPrefix.TAG,
                comm, requestCells[slot]));
    }

    private void deliver(int slot, int length) {
        if (length < RsrPrefix.LENGTH) {
            log.accept("dropping a " + length + "-byte message shorter than an RSR prefix");
            return;
        }
        MemorySegment buffer = buffers[slot];
        int source = RsrPrefix.source(buffer);
        int endpoint = RsrPrefix.endpoint(buffer);
        int handler = RsrPrefix.handler(buffer);
        int start = slot * stride;
        bodies.limit(start + length).position(start + RsrPrefix.LENGTH);
        try {
            sink.deliver(source, endpoint, handler, bodies);
        } catch (MalformedRsrException e) {
            // MPI has no link to close: the RSR is dropped, the job goes on.
            log.accept("dropping a malformed RSR from rank " + source + ": " + e.getMessage());
        }
    }

    /** Cancels the posted receives and frees the native memory; only when no poll runs, before MPI_Finalize. */
    void release() {
        for (int slot = 0; slot < slots; slot++) {
            boolean posted = Math.floorMod(slot - firstUnposted, slots) >= unposted;
            if (posted) {
                mpi.cancelAndWait(requestCells[slot], status);
            }
        }
        arena.close();
    }
}
