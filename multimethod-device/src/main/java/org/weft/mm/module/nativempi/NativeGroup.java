package org.weft.mm.module.nativempi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.weft.adi.DeviceException;
import org.weft.adi.NativeCollectives.Element;
import org.weft.adi.NativeCollectives.Group;
import org.weft.adi.NativeCollectives.Operation;
import org.weft.mm.module.nativempi.LibMpi.BlockingCollectivePath;
import org.weft.mm.module.nativempi.LibMpi.CollectivePath;
import org.weft.mm.module.nativempi.NativeCollectiveCounts.Kind;

/**
 * A native communicator that mirrors one Weft communicator, whose collectives it runs as libmpi's own.
 *
 * <p>With an {@link ArrivalBoard} (all members on one host) each call is libmpi's <em>blocking</em> collective
 * ({@code MPI_Allreduce} and the rest), made once this member has said it came and — unless nobody can need this
 * process's progress meanwhile — once every member has come, waited for with Weft's progress running: a blocking
 * call holds libmpi's gate (so this rank's Weft progress through libmpi stops) until all members are in it, and only
 * a member that has not come yet can need something first. Without a board (members on several hosts) each call is
 * libmpi's nonblocking form ({@code MPI_Iallreduce}...), waited for by the device's wait ({@code Device.await}),
 * which runs Weft's progress between its tests of the native request: libmpi's gate is held only while a call
 * starts and while each {@code MPI_Test} runs. (architecture.md, "Collectives by the site's own MPI".)
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
    /** Who came to the current collective, or {@code null}: the members span hosts, the calls are nonblocking. */
    private final ArrivalBoard board;
    /** Whether nothing this process started needs its progress now (the device's and the layer above's say). */
    private final BooleanSupplier nobodyNeedsMe;
    /** The code the last {@code MPI_Test} failed with, or {@link MpiFlavour#SUCCESS}. */
    private int testCode;
    private boolean closed;

    /**
     * A group over native communicator {@code comm} of {@code size} members; {@code board} when they share a host,
     * else {@code null}; {@code nobodyNeedsMe} says whether a member that came may go into a blocking call at once.
     */
    NativeGroup(LibMpi mpi, long comm, int size, NativeCollectiveCounts counts, BooleanSupplier libraryOpen,
                Consumer<BooleanSupplier> await, ArrivalBoard board, BooleanSupplier nobodyNeedsMe) {
        this.mpi = mpi;
        this.board = board;
        this.nobodyNeedsMe = nobodyNeedsMe;
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
        boolean blocking = come();
        int rc;
        mpi.gate().lock();
        try {
            rc = blocking ? (int) BlockingCollectivePath.BARRIER.invokeExact(comm)
                    : (int) CollectivePath.IBARRIER.invokeExact(comm, request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete(blocking, "MPI_Barrier", rc, Kind.BARRIER, null, NONE);
    }

    @Override
    public void bcast(MemorySegment data, int root) {
        boolean blocking = come();
        int rc;
        mpi.gate().lock();
        try {
            long at = in(data, FIRST);
            rc = blocking ? (int) BlockingCollectivePath.BCAST.invokeExact(at, bytes(data), flavour.byteType(), root,
                    comm)
                    : (int) CollectivePath.IBCAST.invokeExact(at, bytes(data), flavour.byteType(), root, comm, request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete(blocking, "MPI_Bcast", rc, Kind.BCAST, data, FIRST);
    }

    @Override
    public void reduce(MemorySegment send, MemorySegment recv, int count, Element element, Operation op, int root) {
        reduction(Kind.REDUCE, "MPI_Reduce", send, recv, count, element, op, root);
    }

    @Override
    public void allReduce(MemorySegment send, MemorySegment recv, int count, Element element, Operation op) {
        reduction(Kind.ALLREDUCE, "MPI_Allreduce", send, recv, count, element, op, -1);
    }

    @Override
    public void reduceScatterBlock(MemorySegment send, MemorySegment recv, int count, Element element,
                                   Operation op) {
        reduction(Kind.REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block", send, recv, count, element, op, -1);
    }

    /**
     * A reduction of {@code kind}: {@code root < 0} all members get (part of) the result, else {@code root}
     * (MPI_Reduce, whose {@code recv} matters there only). {@code send == null}: in place, the input in {@code recv}.
     */
    private void reduction(Kind kind, String name, MemorySegment send, MemorySegment recv, int count,
                           Element element, Operation op, int root) {
        boolean blocking = come();
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
            rc = reduce(kind, blocking, in, out, count, flavour.datatype(element), flavour.op(op), root);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete(blocking, name, rc, kind, recv, SECOND);
    }

    /** Starts (or, {@code blocking}, runs) the reduction of {@code kind}; its return code. */
    private int reduce(Kind kind, boolean blocking, long in, long out, int count, long type, long op, int root)
            throws Throwable {
        return switch (kind) {
            case REDUCE -> blocking
                    ? (int) BlockingCollectivePath.REDUCE.invokeExact(in, out, count, type, op, root, comm)
                    : (int) CollectivePath.IREDUCE.invokeExact(in, out, count, type, op, root, comm, request);
            case ALLREDUCE -> blocking
                    ? (int) BlockingCollectivePath.ALLREDUCE.invokeExact(in, out, count, type, op, comm)
                    : (int) CollectivePath.IALLREDUCE.invokeExact(in, out, count, type, op, comm, request);
            default -> blocking
                    ? (int) BlockingCollectivePath.REDUCE_SCATTER_BLOCK.invokeExact(in, out, count, type, op, comm)
                    : (int) CollectivePath.IREDUCE_SCATTER_BLOCK.invokeExact(in, out, count, type, op, comm,
                    request);
        };
    }

    @Override
    public void allGather(MemorySegment send, MemorySegment recv) {
        boolean blocking = come();
        int rc;
        mpi.gate().lock();
        try {
            long in = send == null ? flavour.inPlace() : in(send, FIRST);
            long out = send == null ? in(recv, SECOND) : out(recv, SECOND);
            int sent = send == null ? 0 : bytes(send);
            long bytes = flavour.byteType();
            rc = blocking ? (int) BlockingCollectivePath.ALLGATHER.invokeExact(in, sent, bytes, out, block(recv), bytes,
                    comm)
                    : (int) CollectivePath.IALLGATHER.invokeExact(in, sent, bytes, out, block(recv), bytes, comm,
                    request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete(blocking, "MPI_Allgather", rc, Kind.ALLGATHER, recv, SECOND);
    }

    @Override
    public void allToAll(MemorySegment send, MemorySegment recv) {
        boolean blocking = come();
        int rc;
        mpi.gate().lock();
        try {
            long in = in(send, FIRST);
            long out = out(recv, SECOND);
            long bytes = flavour.byteType();
            rc = blocking ? (int) BlockingCollectivePath.ALLTOALL.invokeExact(in, block(send), bytes, out, block(recv),
                    bytes, comm)
                    : (int) CollectivePath.IALLTOALL.invokeExact(in, block(send), bytes, out, block(recv), bytes, comm,
                    request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete(blocking, "MPI_Alltoall", rc, Kind.ALLTOALL, recv, SECOND);
    }

    @Override
    public void gather(MemorySegment send, MemorySegment recv, int root) {
        boolean blocking = come();
        int rc;
        mpi.gate().lock();
        try {
            long in = send == null ? flavour.inPlace() : in(send, FIRST);
            long out = recv == null ? 0 : send == null ? in(recv, SECOND) : out(recv, SECOND);
            int sent = send == null ? 0 : bytes(send);
            int block = recv == null ? 0 : block(recv);
            long bytes = flavour.byteType();
            rc = blocking ? (int) BlockingCollectivePath.GATHER.invokeExact(in, sent, bytes, out, block, bytes, root,
                    comm)
                    : (int) CollectivePath.IGATHER.invokeExact(in, sent, bytes, out, block, bytes, root, comm, request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete(blocking, "MPI_Gather", rc, Kind.GATHER, recv, SECOND);
    }

    @Override
    public void scatter(MemorySegment send, MemorySegment recv, int root) {
        boolean blocking = come();
        int rc;
        mpi.gate().lock();
        try {
            long in = send == null ? 0 : in(send, FIRST);
            long out = recv == null ? flavour.inPlace() : out(recv, SECOND);
            int block = send == null ? 0 : block(send);
            int received = recv == null ? 0 : bytes(recv);
            long bytes = flavour.byteType();
            rc = blocking ? (int) BlockingCollectivePath.SCATTER.invokeExact(in, block, bytes, out, received, bytes,
                    root, comm)
                    : (int) CollectivePath.ISCATTER.invokeExact(in, block, bytes, out, received, bytes, root, comm,
                    request);
        } catch (Throwable t) {
            throw abandoned(t);
        }
        complete(blocking, "MPI_Scatter", rc, Kind.SCATTER, recv, SECOND);
    }

    /**
     * Before a call: whether it is the blocking form — with a board, once this member said it came and, if anything
     * of this process may need its progress, every member came (Weft's progress running meanwhile).
     */
    private boolean come() {
        if (board == null) {
            return false;
        }
        counts.cameTo(board.come(nobodyNeedsMe, await));
        return true;
    }

    /**
     * After a call started or ran ({@code blocking}) with the gate held: raises its failure, else — for a
     * nonblocking one — gives the gate back, waits for the request through the device's wait (Weft's progress runs
     * meanwhile) and raises a failed completion; then copies a staged result from staging buffer {@code buffer} into
     * {@code result} and counts the call. The function's name is the blocking one's: the nonblocking one is
     * {@code MPI_I} and the rest in lower case.
     */
    private void complete(boolean blocking, String function, int rc, Kind kind, MemorySegment result, int buffer) {
        String called = blocking ? function : "MPI_I" + function.substring(4).toLowerCase(Locale.ROOT);
        if (!blocking) {
            try {
                check(called, rc);
            } finally {
                mpi.gate().unlock();
            }
            testCode = MpiFlavour.SUCCESS;
            await.accept(this);
            mpi.gate().lock();
            rc = testCode;
        }
        try {
            check(called, rc);
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
            if (board != null) {
                board.close();
            }
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
