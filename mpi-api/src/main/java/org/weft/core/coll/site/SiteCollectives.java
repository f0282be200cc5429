package org.weft.core.coll.site;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.weft.adi.DeviceException;
import org.weft.adi.NativeCollectives;
import org.weft.adi.NativeCollectives.Element;
import org.weft.adi.NativeCollectives.Group;
import org.weft.adi.NativeCollectives.Operation;
import org.weft.core.MpiRuntime;
import org.weft.core.coll.Collectives;
import org.weft.core.coll.DecidedOnce;
import org.weft.core.coll.Reduction;
import org.weft.core.coll.op.PredefinedOp;
import org.weft.core.coll.shm.ArrayViews;
import org.weft.core.comm.CollectiveTraffic;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.rma.Window;

/**
 * The blocking collectives of one intracommunicator whose members all run in this process's native job (one
 * {@code mpirun}), run by the native MPI on a native communicator of the same members in the same order (a
 * {@link Group}, made at the communicator's first blocking collective of any kind and freed with it): barrier, bcast,
 * gather, scatter, allgather and alltoall as bytes, whatever their types; reduce, allreduce and reduce_scatter_block
 * when the operation is predefined (not MINLOC/MAXLOC, nor a user's) and the type is one element of a Java primitive
 * other than {@code boolean}. Each method returns false, having done nothing, when the call keeps Weft's schedules.
 *
 * <p>Every member decides alike from what all know alike: whether all members are in one native job (from the
 * descriptors every rank exchanged at start), the program's thread level (asked alike by every rank), the operation
 * and the type's element (equal by MPI's signature rules) and the byte counts (equal too). A program at
 * {@code MPI_THREAD_MULTIPLE} keeps the schedules: making the native communicator blocks in the native MPI holding
 * its one lock, so two threads making those of two communicators in opposite orders in two processes would wait for
 * each other for ever.
 *
 * <p>The native calls are the native MPI's blocking forms when the members share a host — made at once when nothing
 * of this process can need its progress meanwhile ({@link #nothingPendingHere} and the device's own test), else once
 * every member has come, waited for with Weft's progress running — and its nonblocking forms, waited for so, when they
 * do not: a peer that needs this rank's progress before it joins (its receive of a large message this rank sent before
 * the collective) gets it (architecture.md, "Collectives by the site's own MPI"). Making the native communicator ({@code MPI_Comm_create_group}) has no nonblocking
 * form: a barrier of Weft's schedules comes first, so every member has reached the collective, and needs nothing
 * more from the others' Weft progress, before any blocks in it. Before a native call the communicator's outstanding
 * nonblocking collectives are completed (all members started them before this call, so all complete them alike).
 */
public final class SiteCollectives {
    /** The native operation of each {@link PredefinedOp}, by ordinal (the names are the same). */
    private static final Operation[] OPERATIONS = operations();

    private final Communicator comm;
    private final ArrayViews views = new ArrayViews();
    /** The native communicator, made at the communicator's first blocking collective ({@link #setUp}). */
    private final DecidedOnce<Group> groups;
    /** The error of a reader's bad buffer, raised after the native call ({@link #readingInto}). */
    private DeviceException readFailure;

    public SiteCollectives(Communicator comm) {
        this.comm = comm;
        this.groups = new DecidedOnce<>(this::setUp, Group::close);
    }

    /** {@code MPI_Barrier} by the native MPI; false if this communicator keeps the schedules. */
    public boolean barrier() {
        if (!ready()) {
            return false;
        }
        group().barrier();
        return true;
    }

    /** {@code MPI_Bcast} by the native MPI; false if the call keeps the schedules. */
    public boolean bcast(Object buf, int count, TypeDescriptor type, int root) {
        if (!ready() || !fitsInt(bytes(count, type))) {
            return false;
        }
        boolean isRoot = comm.rank() == root;
        MemorySegment data = isRoot ? sending(buf, count, type) : readingInto(buf, count, type);
        group().bcast(data, root);
        if (!isRoot) {
            read(buf, count, type, data);
        }
        return true;
    }

    /** {@code MPI_Reduce} ({@code sendbuf == null} at the root: in place); false if the call keeps the schedules. */
    public boolean reduce(Object sendbuf, Object recvbuf, int count, TypeDescriptor type, Reduction op, int root) {
        Element element = element(type, op);
        if (!ready() || element == null || count < 0) {
            return false;
        }
        boolean isRoot = comm.rank() == root;
        MemorySegment recv = isRoot ? readingInto(recvbuf, count, type) : null;
        MemorySegment send = sendbuf == null && isRoot ? null : sending(sendbuf, count, type);
        group().reduce(send, recv, count, element, OPERATIONS[op.predefined().ordinal()], root);
        if (isRoot) {
            read(recvbuf, count, type, recv);
        }
        return true;
    }

    /** {@code MPI_Allreduce} ({@code sendbuf == null}: in place); false if the call keeps the schedules. */
    public boolean allReduce(Object sendbuf, Object recvbuf, int count, TypeDescriptor type, Reduction op) {
        Element element = element(type, op);
        if (!ready() || element == null || count < 0) {
            return false;
        }
        MemorySegment recv = receiving(recvbuf, count, type);
        MemorySegment send = sendbuf == null ? null : sending(sendbuf, count, type);
        group().allReduce(send, recv, count, element, OPERATIONS[op.predefined().ordinal()]);
        received(recvbuf, count, type, recv);
        return true;
    }

    /**
     * {@code MPI_Reduce_scatter_block} ({@code sendbuf == null}: in place, the input in {@code recvbuf}); false if
     * the call keeps the schedules.
     */
    public boolean reduceScatterBlock(Object sendbuf, Object recvbuf, int count, TypeDescriptor type,
                                      Reduction op) {
        Element element = element(type, op);
        int n = comm.size();
        if (!ready() || element == null || count < 0 || !fitsInt((long) count * n)) {
            return false;
        }
        MemorySegment recv = receiving(recvbuf, sendbuf == null ? count * n : count, type);
        MemorySegment send = sendbuf == null ? null : sending(sendbuf, count * n, type);
        group().reduceScatterBlock(send, recv, count, element, OPERATIONS[op.predefined().ordinal()]);
        received(recvbuf, sendbuf == null ? count * n : count, type, recv);
        return true;
    }

    /** {@code MPI_Allgather} ({@code sendbuf == null}: in place); false if the call keeps the schedules. */
    public boolean allGather(Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf, int recvcount,
                             TypeDescriptor recvtype) {
        int n = comm.size();
        if (!ready() || !fitsInt(bytes(recvcount, recvtype)) || (sendbuf != null
                && !fitsInt(bytes(sendcount, sendtype)))) {
            return false;
        }
        MemorySegment recv = receiving(recvbuf, Math.multiplyExact(n, recvcount), recvtype);
        MemorySegment send = sendbuf == null ? null : sending(sendbuf, sendcount, sendtype);
        group().allGather(send, recv);
        received(recvbuf, n * recvcount, recvtype, recv);
        return true;
    }

    /** {@code MPI_Alltoall} (not in place); false if the call keeps the schedules. */
    public boolean allToAll(Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf, int recvcount,
                            TypeDescriptor recvtype) {
        int n = comm.size();
        if (!ready() || sendbuf == null || !fitsInt(bytes(sendcount, sendtype))
                || !fitsInt(bytes(recvcount, recvtype))) {
            return false;
        }
        MemorySegment send = sending(sendbuf, Math.multiplyExact(n, sendcount), sendtype);
        MemorySegment recv = receiving(recvbuf, Math.multiplyExact(n, recvcount), recvtype);
        group().allToAll(send, recv);
        received(recvbuf, n * recvcount, recvtype, recv);
        return true;
    }

    /** {@code MPI_Gather} ({@code sendbuf == null} at the root: in place); false if the call keeps the schedules. */
    public boolean gather(Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf, int recvcount,
                          TypeDescriptor recvtype, int root) {
        boolean isRoot = comm.rank() == root;
        boolean inPlace = isRoot && sendbuf == null;
        if (!ready() || (isRoot && !fitsInt(bytes(recvcount, recvtype)))
                || (!inPlace && !fitsInt(bytes(sendcount, sendtype)))) {
            return false;
        }
        int all = isRoot ? Math.multiplyExact(comm.size(), recvcount) : 0;
        MemorySegment recv = isRoot ? readingInto(recvbuf, all, recvtype) : null;
        MemorySegment send = inPlace ? null : sending(sendbuf, sendcount, sendtype);
        group().gather(send, recv, root);
        if (isRoot) {
            read(recvbuf, all, recvtype, recv);
        }
        return true;
    }

    /** {@code MPI_Scatter} ({@code recvbuf == null} at the root: in place); false if the call keeps the schedules. */
    public boolean scatter(Object sendbuf, int sendcount, TypeDescriptor sendtype, Object recvbuf, int recvcount,
                           TypeDescriptor recvtype, int root) {
        boolean isRoot = comm.rank() == root;
        boolean inPlace = isRoot && recvbuf == null;
        if (!ready() || (isRoot && !fitsInt(bytes(sendcount, sendtype)))
                || (!inPlace && !fitsInt(bytes(recvcount, recvtype)))) {
            return false;
        }
        MemorySegment send = isRoot ? sending(sendbuf, Math.multiplyExact(comm.size(), sendcount), sendtype) : null;
        MemorySegment recv = inPlace ? null : readingInto(recvbuf, recvcount, recvtype);
        group().scatter(send, recv, root);
        if (!inPlace) {
            read(recvbuf, recvcount, recvtype, recv);
        }
        return true;
    }

    /** Frees the native communicator: the communicator was freed. */
    public void close() {
        groups.close();
        views.clear();
    }

    /**
     * Whether the native MPI runs this communicator's collectives, decided (and the native communicator made, a
     * collective call) at its first blocking collective; the communicator's outstanding nonblocking collectives are
     * completed first when it does.
     */
    private boolean ready() {
        if (groups.get() == null) {
            return false;
        }
        comm.collectives().finishOutstanding(comm.device());
        return true;
    }

    /** The native communicator, after {@link #ready} said there is one. */
    private Group group() {
        return groups.made();
    }

    /** The native communicator of the members, or {@code null} when they are not all in one native job. */
    private Group setUp() {
        NativeCollectives natives = comm.device().nativeCollectives();
        int n = comm.size();
        if (natives == null || comm.isInter() || n < 2 || comm.runtime().threadLevel() >= MpiRuntime.THREAD_MULTIPLE) {
            return null;
        }
        int[] worldRanks = new int[n];
        for (int r = 0; r < n; r++) {
            worldRanks[r] = comm.toWorld(r);
            if (!natives.reaches(worldRanks[r])) {
                return null;
            }
        }
        Collectives.barrier(comm).run(comm.collectives()); // every member has come (see above)
        return natives.create(worldRanks, comm.context(), SiteCollectives::nothingPendingHere);
    }

    /**
     * Whether nothing this layer started can need this process's progress now: no nonblocking collective of any
     * communicator is outstanding (only this process's waits advance their later rounds), and no window has a service
     * thread (an origin's lock, flush or put may wait for its answer at any time; architecture.md, "Collectives by the
     * site's own MPI").
     */
    private static boolean nothingPendingHere() {
        return CollectiveTraffic.noneOutstandingAnywhere() && Window.noServiceRunning();
    }

    /**
     * The native element of a reduction on {@code type} by {@code op}, or {@code null} when the schedules run it: a
     * user's operation or MINLOC/MAXLOC, {@code boolean}, a type of more than one element (complex numbers), or a sum
     * of 8- or 16-bit integers, which must wrap around as Java's arithmetic does, and which Open MPI 4.1's AVX kernels
     * saturate (30000 + 30000 as {@code MPI_SHORT} gives 32767 there).
     */
    private static Element element(TypeDescriptor type, Reduction op) {
        TypeDescriptor t = TypeDescriptor.check(type);
        if (op.predefined() == null || t.baseCount() != 1 || t.pairLayout() != null
                || op.predefined() == PredefinedOp.SUM && t.base().bytes() < Integer.BYTES) {
            return null;
        }
        return switch (t.base()) {
            case BYTE -> Element.BYTE;
            case SHORT -> Element.SHORT;
            case CHAR -> Element.CHAR;
            case INT -> Element.INT;
            case LONG -> Element.LONG;
            case FLOAT -> Element.FLOAT;
            case DOUBLE -> Element.DOUBLE;
            case BOOLEAN -> null;
        };
    }

    /** The bytes to send of {@code count} items: a view of the buffer, or a packed copy. */
    private MemorySegment sending(Object buffer, int count, TypeDescriptor type) {
        return BufferMapping.needsStaging(buffer, type) ? BufferMapping.forSend(buffer, count, type)
                : views.view(buffer, count, type, false);
    }

    /** Where {@code count} items are received: a view of the buffer, or a packed copy of its current values. */
    private MemorySegment receiving(Object buffer, int count, TypeDescriptor type) {
        return BufferMapping.needsFinish(buffer, type) ? BufferMapping.forUpdate(buffer, count, type)
                : views.view(buffer, count, type, true);
    }

    /**
     * Where a rank whose part is only to read (a bcast's or scatter's non-root, a gather's or reduce's root) receives
     * {@code count} items: as {@link #receiving}, or, if its buffer is bad (read-only, too short), scratch memory, so
     * that it still makes the native call the others make — libmpi pairs a communicator's collectives in call order,
     * and one left out paired this rank's next call with the others' failed one — and raises the error after it
     * ({@link #read}).
     */
    private MemorySegment readingInto(Object buffer, int count, TypeDescriptor type) {
        try {
            return receiving(buffer, count, type);
        } catch (DeviceException e) {
            readFailure = e;
            return Arena.ofAuto().allocate(Math.max(1, bytes(count, type))).asSlice(0, bytes(count, type));
        }
    }

    /** Finishes a receive from {@link #readingInto}: unpacks a packed copy, or raises the buffer's error. */
    private void read(Object buffer, int count, TypeDescriptor type, MemorySegment data) {
        DeviceException failure = readFailure;
        if (failure != null) {
            readFailure = null;
            throw failure;
        }
        received(buffer, count, type, data);
    }

    /** Unpacks a packed copy from {@link #receiving} into the buffer. */
    private static void received(Object buffer, int count, TypeDescriptor type, MemorySegment data) {
        if (BufferMapping.needsFinish(buffer, type)) {
            BufferMapping.finishReceive(buffer, count, type, data, data.byteSize());
        }
    }

    /** Bytes of {@code count} items of {@code type}; negative for a negative count (the schedules raise it). */
    private static long bytes(int count, TypeDescriptor type) {
        return (long) count * TypeDescriptor.check(type).byteSize();
    }

    /** Whether {@code bytes} is a count a native call takes (an {@code int}), and not negative. */
    private static boolean fitsInt(long bytes) {
        return bytes >= 0 && bytes <= Integer.MAX_VALUE;
    }

    private static Operation[] operations() {
        PredefinedOp[] ops = PredefinedOp.values();
        Operation[] natives = new Operation[ops.length];
        for (int i = 0; i < ops.length; i++) {
            natives[i] = Operation.valueOf(ops[i].name());
        }
        return natives;
    }
}
