package org.weft.mm.module.nativempi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.function.BooleanSupplier;
import org.weft.adi.DeviceException;
import org.weft.adi.NativeCollectives.Element;
import org.weft.adi.NativeCollectives.Group;
import org.weft.adi.NativeCollectives.Operation;
import org.weft.mm.module.nativempi.LibMpi.CollectivePath;

/**
 * A native communicator that mirrors one Weft communicator, whose collectives it runs as libmpi's own. Each call
 * holds libmpi's gate throughout (the module asked for {@code MPI_THREAD_SERIALIZED}), so this process's other
 * libmpi traffic waits until the collective is done.
 *
 * <p>libmpi takes addresses: a native segment is passed as it is; a heap segment (a Java array, which the collector
 * may move) is staged in one of two native buffers this group keeps (grown by doubling, never shrunk), copied in
 * before the call when libmpi reads it and out after it when libmpi wrote it. Nothing is allocated per call once the
 * buffers are large enough.
 */
final class NativeGroup implements Group {
    private static final int FIRST = 0;
    private static final int SECOND = 1;

    private final LibMpi mpi;
    private final MpiFlavour flavour;
    private final NativeCollectiveCounts counts;
    private final long comm;
    private final int size;
    /** Whether libmpi is still initialised (not finalised by the module's shutdown); read under the gate. */
    private final BooleanSupplier libraryOpen;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] staging = {MemorySegment.NULL, MemorySegment.NULL};
    private boolean closed;

    NativeGroup(LibMpi mpi, long comm, int size, NativeCollectiveCounts counts, BooleanSupplier libraryOpen) {
        this.mpi = mpi;
        this.libraryOpen = libraryOpen;
        this.flavour = mpi.flavour();
        this.comm = comm;
        this.size = size;
        this.counts = counts;
    }

    @Override
    public void barrier() {
        mpi.gate().lock();
        try {
            check("MPI_Barrier", (int) CollectivePath.BARRIER.invokeExact(comm));
            counts.add(NativeCollectiveCounts.Kind.BARRIER);
        } catch (Throwable t) {
            throw LibMpi.rethrow(t);
        } finally {
            mpi.gate().unlock();
        }
    }

    @Override
    public void bcast(MemorySegment data, int root) {
        mpi.gate().lock();
        try {
            long at = in(data, FIRST);
            check("MPI_Bcast", (int) CollectivePath.BCAST.invokeExact(at, bytes(data), flavour.byteType(), root,
                    comm));
            unstage(data, FIRST);
            counts.add(NativeCollectiveCounts.Kind.BCAST);
        } catch (Throwable t) {
            throw LibMpi.rethrow(t);
        } finally {
            mpi.gate().unlock();
        }
    }

    @Override
    public void reduce(MemorySegment send, MemorySegment recv, int count, Element element, Operation op, int root) {
        reduction(CollectivePath.REDUCE, "MPI_Reduce", send, recv, count, element, op, root);
    }

    @Override
    public void allReduce(MemorySegment send, MemorySegment recv, int count, Element element, Operation op) {
        reduction(CollectivePath.ALLREDUCE, "MPI_Allreduce", send, recv, count, element, op, -1);
    }

    @Override
    public void reduceScatterBlock(MemorySegment send, MemorySegment recv, int count, Element element,
                                   Operation op) {
        reduction(CollectivePath.REDUCE_SCATTER_BLOCK, "MPI_Reduce_scatter_block", send, recv, count, element, op,
                -1);
    }

    /**
     * A reduction: {@code root < 0} all members get (part of) the result, else {@code root} (MPI_Reduce, whose
     * {@code recv} matters there only). {@code send == null}: in place, the input in {@code recv}.
     */
    private void reduction(MethodHandle call, String name, MemorySegment send, MemorySegment recv, int count,
                           Element element, Operation op, int root) {
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
            int rc = root >= 0 ? (int) call.invokeExact(in, out, count, type, native_, root, comm)
                    : (int) call.invokeExact(in, out, count, type, native_, comm);
            check(name, rc);
            if (recv != null) {
                unstage(recv, SECOND);
            }
            counts.add(root >= 0 ? NativeCollectiveCounts.Kind.REDUCE
                    : call == CollectivePath.ALLREDUCE ? NativeCollectiveCounts.Kind.ALLREDUCE
                    : NativeCollectiveCounts.Kind.REDUCE_SCATTER_BLOCK);
        } catch (Throwable t) {
            throw LibMpi.rethrow(t);
        } finally {
            mpi.gate().unlock();
        }
    }

    @Override
    public void allGather(MemorySegment send, MemorySegment recv) {
        mpi.gate().lock();
        try {
            long in = send == null ? flavour.inPlace() : in(send, FIRST);
            long out = send == null ? in(recv, SECOND) : out(recv, SECOND);
            int sendBytes = send == null ? 0 : bytes(send);
            check("MPI_Allgather", (int) CollectivePath.ALLGATHER.invokeExact(in, sendBytes, flavour.byteType(), out,
                    block(recv), flavour.byteType(), comm));
            unstage(recv, SECOND);
            counts.add(NativeCollectiveCounts.Kind.ALLGATHER);
        } catch (Throwable t) {
            throw LibMpi.rethrow(t);
        } finally {
            mpi.gate().unlock();
        }
    }

    @Override
    public void allToAll(MemorySegment send, MemorySegment recv) {
        mpi.gate().lock();
        try {
            long in = in(send, FIRST);
            long out = out(recv, SECOND);
            check("MPI_Alltoall", (int) CollectivePath.ALLTOALL.invokeExact(in, block(send), flavour.byteType(), out,
                    block(recv), flavour.byteType(), comm));
            unstage(recv, SECOND);
            counts.add(NativeCollectiveCounts.Kind.ALLTOALL);
        } catch (Throwable t) {
            throw LibMpi.rethrow(t);
        } finally {
            mpi.gate().unlock();
        }
    }

    @Override
    public void gather(MemorySegment send, MemorySegment recv, int root) {
        mpi.gate().lock();
        try {
            long in = send == null ? flavour.inPlace() : in(send, FIRST);
            long out = recv == null ? 0 : send == null ? in(recv, SECOND) : out(recv, SECOND);
            int sendBytes = send == null ? 0 : bytes(send);
            int block = recv == null ? 0 : block(recv);
            check("MPI_Gather", (int) CollectivePath.GATHER.invokeExact(in, sendBytes, flavour.byteType(), out,
                    block, flavour.byteType(), root, comm));
            if (recv != null) {
                unstage(recv, SECOND);
            }
            counts.add(NativeCollectiveCounts.Kind.GATHER);
        } catch (Throwable t) {
            throw LibMpi.rethrow(t);
        } finally {
            mpi.gate().unlock();
        }
    }

    @Override
    public void scatter(MemorySegment send, MemorySegment recv, int root) {
        mpi.gate().lock();
        try {
            long in = send == null ? 0 : in(send, FIRST);
            long out = recv == null ? flavour.inPlace() : out(recv, SECOND);
            int block = send == null ? 0 : block(send);
            int recvBytes = recv == null ? 0 : bytes(recv);
            check("MPI_Scatter", (int) CollectivePath.SCATTER.invokeExact(in, block, flavour.byteType(), out,
                    recvBytes, flavour.byteType(), root, comm));
            if (recv != null) {
                unstage(recv, SECOND);
            }
            counts.add(NativeCollectiveCounts.Kind.SCATTER);
        } catch (Throwable t) {
            throw LibMpi.rethrow(t);
        } finally {
            mpi.gate().unlock();
        }
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
