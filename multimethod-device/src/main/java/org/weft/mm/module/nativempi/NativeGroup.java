package org.weft.mm.module.nativempi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.weft.adi.DeviceException;
import org.weft.adi.NativeCollectives.Element;
import org.weft.adi.NativeCollectives.Group;
import org.weft.adi.NativeCollectives.Operation;
import org.weft.mm.module.nativempi.LibMpi.CollectivePath;
import org.weft.mm.module.nativempi.NativeCollectiveCounts.Kind;

/**
 * A native communicator that mirrors one Weft communicator, whose collectives it runs as libmpi's own nonblocking
 * ones ({@code MPI_Iallreduce} and the rest), each waited for by the device's wait ({@code Device.await}), which
 * runs Weft's progress between its tests of the native request: libmpi's gate is held only while a call starts and
 * while each {@code MPI_Test} runs, so this rank's Weft traffic through libmpi (and every other module's) goes on
 * while a collective waits for the other members — a peer that needs this rank's progress before it joins gets it.
 *
 * <p>libmpi takes addresses: a native segment is passed as it is; a heap segment (a Java array, which the collector
 * may move) is staged in one of two native buffers this group keeps (grown by doubling, never shrunk), copied in
 * before the call when libmpi reads it and out after completion when libmpi wrote it. One call at a time per group
 * (MPI's rule for blocking collectives of one communicator): the request cell, the staging buffers and this object
 * as the wait's condition are reused, so nothing is allocated per call once the buffers are large enough.
 */
final class NativeGroup implements Group, BooleanSupplier {
    private static final int FIRST = 0;
    private static final int SECOND = 1;
    /** No staged result to copy out. */
    private static final int NONE = -1;
    /** Room for one MPI_Request (Open MPI: a pointer; MPICH: an int) and one MPI_Status of either library. */
    private static final long REQUEST_BYTES = 8;
    private static final long STATUS_BYTES = 64;

    private final LibMpi mpi;
    private final MpiFlavour flavour;
    private final NativeCollectiveCounts counts;
    private final long comm;
    private final int size;
    /** Whether libmpi is still initialised (not finalised by the module's shutdown); read under the gate. */
    private final BooleanSupplier libraryOpen;
    /** The device's wait: runs Weft's progress until its condition (this group's request test) holds. */
    private final Consumer<BooleanSupplier> await;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] staging = {MemorySegment.NULL, MemorySegment.NULL};
    private final MemorySegment cells;
    private final long request;
    private final long flag;
    private final long status;
    /** The code the last {@code MPI_Test} failed with, or {@link MpiFlavour#SUCCESS}. */
    private int testCode;
    private boolean closed;

    NativeGroup(LibMpi mpi, long comm, int size, NativeCollectiveCounts counts, BooleanSupplier libraryOpen,
                Consumer<BooleanSupplier> await) {
        this.mpi = mpi;
        this.libraryOpen = libraryOpen;
        this.await = await;
        this.flavour = mpi.flavour();
        this.comm = comm;
        this.size = size;
        this.counts = counts;
        this.cells = arena.allocate(REQUEST_BYTES + 8 + STATUS_BYTES, 64);
        this.request = cells.address();
        this.flag = request + REQUEST_BYTES;
        this.status = flag + 8;
    }

    @Override
    public void barrier() {
        int rc;
        mpi.gate().lock();
        try {
            rc = (int) CollectivePath.IBARRIER.invokeExact(comm, request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete("MPI_Ibarrier", rc, Kind.BARRIER, null, NONE);
    }

    @Override
    public void bcast(MemorySegment data, int root) {
        int rc;
        mpi.gate().lock();
        try {
            rc = (int) CollectivePath.IBCAST.invokeExact(in(data, FIRST), bytes(data), flavour.byteType(), root, comm,
                    request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete("MPI_Ibcast", rc, Kind.BCAST, data, FIRST);
    }

    @Override
    public void reduce(MemorySegment send, MemorySegment recv, int count, Element element, Operation op, int root) {
        reduction(CollectivePath.IREDUCE, "MPI_Ireduce", Kind.REDUCE, send, recv, count, element, op, root);
    }

    @Override
    public void allReduce(MemorySegment send, MemorySegment recv, int count, Element element, Operation op) {
        reduction(CollectivePath.IALLREDUCE, "MPI_Iallreduce", Kind.ALLREDUCE, send, recv, count, element, op, -1);
    }

    @Override
    public void reduceScatterBlock(MemorySegment send, MemorySegment recv, int count, Element element,
                                   Operation op) {
        reduction(CollectivePath.IREDUCE_SCATTER_BLOCK, "MPI_Ireduce_scatter_block", Kind.REDUCE_SCATTER_BLOCK, send,
                recv, count, element, op, -1);
    }

    /**
     * A reduction: {@code root < 0} all members get (part of) the result, else {@code root} (MPI_Reduce, whose
     * {@code recv} matters there only). {@code send == null}: in place, the input in {@code recv}.
     */
    private void reduction(MethodHandle call, String name, Kind kind, MemorySegment send, MemorySegment recv,
                           int count, Element element, Operation op, int root) {
        int rc;
        mpi.gate().lock();
        try {
            long in;
            long out;
            if (send == null && root >= 0) { // MPICH 4.0.2's MPI_Reduce reads MPI_IN_PLACE as data at a root but 0
                in = copied(recv, FIRST);
                out = out(recv, SECOND);
            } else { // in place, libmpi reads the input where it writes the result
                in = send == null ? flavour.inPlace() : in(send, FIRST);
                out = recv == null ? 0 : send == null ? in(recv, SECOND) : out(recv, SECOND);
            }
            long type = flavour.datatype(element);
            long native_ = flavour.op(op);
            rc = root >= 0 ? (int) call.invokeExact(in, out, count, type, native_, root, comm, request)
                    : (int) call.invokeExact(in, out, count, type, native_, comm, request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete(name, rc, kind, recv, SECOND);
    }

    @Override
    public void allGather(MemorySegment send, MemorySegment recv) {
        int rc;
        mpi.gate().lock();
        try {
            long in = send == null ? flavour.inPlace() : in(send, FIRST);
            long out = send == null ? in(recv, SECOND) : out(recv, SECOND);
            rc = (int) CollectivePath.IALLGATHER.invokeExact(in, send == null ? 0 : bytes(send), flavour.byteType(),
                    out, block(recv), flavour.byteType(), comm, request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete("MPI_Iallgather", rc, Kind.ALLGATHER, recv, SECOND);
    }

    @Override
    public void allToAll(MemorySegment send, MemorySegment recv) {
        int rc;
        mpi.gate().lock();
        try {
            rc = (int) CollectivePath.IALLTOALL.invokeExact(in(send, FIRST), block(send), flavour.byteType(),
                    out(recv, SECOND), block(recv), flavour.byteType(), comm, request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete("MPI_Ialltoall", rc, Kind.ALLTOALL, recv, SECOND);
    }

    @Override
    public void gather(MemorySegment send, MemorySegment recv, int root) {
        int rc;
        mpi.gate().lock();
        try {
            long in = send == null ? flavour.inPlace() : in(send, FIRST);
            long out = recv == null ? 0 : send == null ? in(recv, SECOND) : out(recv, SECOND);
            rc = (int) CollectivePath.IGATHER.invokeExact(in, send == null ? 0 : bytes(send), flavour.byteType(), out,
                    recv == null ? 0 : block(recv), flavour.byteType(), root, comm, request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete("MPI_Igather", rc, Kind.GATHER, recv, SECOND);
    }

    @Override
    public void scatter(MemorySegment send, MemorySegment recv, int root) {
        int rc;
        mpi.gate().lock();
        try {
            long in = send == null ? 0 : in(send, FIRST);
            long out = recv == null ? flavour.inPlace() : out(recv, SECOND);
            rc = (int) CollectivePath.ISCATTER.invokeExact(in, send == null ? 0 : block(send), flavour.byteType(), out,
                    recv == null ? 0 : bytes(recv), flavour.byteType(), root, comm, request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete("MPI_Iscatter", rc, Kind.SCATTER, recv, SECOND);
    }

    /**
     * After a nonblocking call started (the gate held): raises its failure, else gives the gate back, waits for the
     * request through the device's wait (Weft's progress runs meanwhile), raises a failed completion, copies a
     * staged result from staging buffer {@code buffer} into {@code result} and counts the call.
     */
    private void complete(String function, int rc, Kind kind, MemorySegment result, int buffer) {
        try {
            check(function, rc);
        } finally {
            mpi.gate().unlock();
        }
        testCode = MpiFlavour.SUCCESS;
        await.accept(this);
        mpi.gate().lock();
        try {
            check(function, testCode);
            if (result != null && buffer != NONE) {
                unstage(result, buffer);
            }
            counts.add(kind);
        } finally {
            mpi.gate().unlock();
        }
    }

    /** Whether the running call's request completed (or failed: {@link #testCode}): one {@code MPI_Test}, gate held. */
    @Override
    public boolean getAsBoolean() {
        mpi.gate().lock();
        try {
            int rc = (int) CollectivePath.TEST.invokeExact(request, flag, status);
            if (rc != MpiFlavour.SUCCESS) {
                testCode = rc;
                return true;
            }
            return cells.get(ValueLayout.JAVA_INT, REQUEST_BYTES) != 0;
        } catch (Throwable t) {
            throw LibMpi.rethrow(t);
        } finally {
            mpi.gate().unlock();
        }
    }

    /** Gives the gate back after a call failed to start (an exception, not a code) and returns it to throw. */
    private RuntimeException abandoned(Throwable t) {
        mpi.gate().unlock();
        return LibMpi.rethrow(t);
    }

    /** Frees the native communicator and the staging buffers, unless libmpi is finalised (which freed it). */
    @Override
    public void close() {
        mpi.gate().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (libraryOpen.getAsBoolean()) {
                mpi.commFree(comm);
            }
            arena.close();
        } finally {
            mpi.gate().unlock();
        }
    }

    /** The address libmpi reads {@code data} at: its own, or a staging buffer holding a copy. */
    private long in(MemorySegment data, int buffer) {
        return data.isNative() ? data.address() : copied(data, buffer);
    }

    /** The address of a copy of {@code data} in a staging buffer, native or not. */
    private long copied(MemorySegment data, int buffer) {
        MemorySegment staged = staging(buffer, data.byteSize());
        MemorySegment.copy(data, 0, staged, 0, data.byteSize());
        return staged.address();
    }

    /** The address libmpi writes {@code data} at (copied back by {@link #unstage}). */
    private long out(MemorySegment data, int buffer) {
        return data.isNative() ? data.address() : staging(buffer, data.byteSize()).address();
    }

    /** Copies what libmpi wrote into a staging buffer back into the heap segment {@code data}. */
    private void unstage(MemorySegment data, int buffer) {
        if (!data.isNative()) {
            MemorySegment.copy(staging[buffer], 0, data, 0, data.byteSize());
        }
    }

    private MemorySegment staging(int buffer, long bytes) {
        MemorySegment current = staging[buffer];
        if (current.byteSize() < bytes) {
            long grown = Math.max(4096, Long.highestOneBit(Math.max(1, bytes - 1)) << 1);
            current = arena.allocate(grown, 64);
            staging[buffer] = current;
        }
        return current;
    }

    private static int bytes(MemorySegment data) {
        return Math.toIntExact(data.byteSize());
    }

    /** Bytes of one member's block of {@code data} (one block per member). */
    private int block(MemorySegment data) {
        return Math.toIntExact(data.byteSize() / size);
    }

    /** {@link DeviceException} with the MPI error class of {@code rc}, unless it is {@code MPI_SUCCESS}. */
    private void check(String function, int rc) {
        if (rc != MpiFlavour.SUCCESS) {
            int errorClass = flavour.weftErrorClass(mpi.errorClassOf(rc));
            throw new DeviceException(errorClass, function + " of the site's " + flavour.name() + " failed: "
                    + mpi.errorString(rc));
        }
    }
}
