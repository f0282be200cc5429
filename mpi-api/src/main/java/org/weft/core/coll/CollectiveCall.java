package org.weft.core.coll;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.util.ArrayList;
import java.util.List;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.ReusableSchedules;
import org.weft.core.coll.sched.ReusableSchedules.Kind;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;

/**
 * One collective call being prepared: its schedule (with the communicator's next collective tag), the user
 * buffers mapped to segments, and what must happen after the algorithm (copying a staged {@code boolean[]}
 * result back). {@link #schedule()} closes it — and, for a blocking call that staged nothing, hands it to the
 * communicator to keep ({@link ReusableSchedules}); {@link #kept} finds one kept before.
 */
final class CollectiveCall {
    private final Communicator comm;
    private final Schedule schedule;
    /** Copy-backs of staged results, made only by calls that stage (most do not). */
    private List<Runnable> finishers;
    /** Whether a buffer went through a packed copy made now, which a later call could not reuse. */
    private boolean staged;
    /** What the schedule is kept as, with the arguments it was built for (see {@link Kind}); {@code null}: not kept. */
    private Kind keepAs;
    private Object a;
    private Object b;
    private Object c;
    private Object d;
    private int x;
    private int y;
    private int z;
    /** Bytes of the user buffers a kept schedule holds. */
    private long held;
    /** An error this rank raises once the call has run to its end ({@link #failAtEnd}), or {@code null}. */
    private DeviceException atEnd;

    CollectiveCall(Communicator comm) {
        this.comm = comm;
        this.schedule = new Schedule(comm.device(), comm.collectiveContext(), comm.collectives().nextTag());
    }

    /**
     * A call that, when {@code keep} (a blocking call), hands its schedule to the communicator to keep for later
     * calls with the same arguments, unless it staged a buffer ({@link ReusableSchedules}).
     */
    CollectiveCall(Communicator comm, boolean keep, Kind kind, Object a, Object b, Object c, Object d, int x, int y,
                   int z) {
        this(comm);
        if (!keep) {
            return;
        }
        long heldA = held(a);
        long heldB = b == a ? 0 : held(b);
        long most = ReusableSchedules.MOST_BYTES_HELD;
        if (heldA <= most && heldB <= most) {
            this.keepAs = kind;
            this.held = heldA + heldB;
            this.a = a;
            this.b = b;
            this.c = c;
            this.d = d;
            this.x = x;
            this.y = y;
            this.z = z;
        }
    }

    /** Bytes a kept schedule would hold reachable through {@code buffer}; not a buffer at all: too many. */
    private static long held(Object buffer) {
        if (buffer == null) {
            return 0;
        }
        boolean primitiveArray = buffer.getClass().isArray() && buffer.getClass().getComponentType().isPrimitive();
        return buffer instanceof Buffer || primitiveArray ? BufferMapping.availableBytes(buffer) : Long.MAX_VALUE;
    }

    /**
     * The schedule the communicator kept from an earlier blocking call with the same arguments, ready to run under
     * this call's tag; {@code null} when there is none or the call is not blocking ({@code keep} false).
     */
    static Schedule kept(Communicator comm, boolean keep, Kind kind, Object a, Object b, Object c, Object d, int x,
                         int y, int z) {
        if (!keep) {
            return null;
        }
        checkIfType(c);
        checkIfType(d);
        return comm.collectives().kept(kind, a, b, c, d, x, y, z);
    }

    /** A type in a key freed since the schedule was kept: {@code ERR_TYPE}, as a new call would raise. */
    private static void checkIfType(Object keyPart) {
        if (keyPart instanceof TypeDescriptor type) {
            TypeDescriptor.check(type);
        }
    }

    Communicator comm() {
        return comm;
    }

    Schedule plan() {
        return schedule;
    }

    /** The local group of the communicator as the algorithms see it. */
    Members members() {
        return comm.collectives().members(comm.group(), comm.device().rank());
    }

    /** The bytes of {@code count} items to send from {@code buffer}. */
    MemorySegment in(Object buffer, int count, TypeDescriptor type) {
        MemorySegment data = BufferMapping.forSend(buffer, count, type); // checks the arguments first
        staged |= BufferMapping.needsStaging(buffer, type);
        schedule.hold(buffer);
        return data;
    }

    /**
     * Where {@code count} items are received into (or updated in) {@code buffer}: a view of it, or for a
     * {@code boolean[]} or a non-contiguous type a staged (packed) copy of its current contents that is unpacked
     * back when the schedule ends.
     */
    MemorySegment out(Object buffer, int count, TypeDescriptor type) {
        schedule.hold(buffer);
        if (!BufferMapping.needsFinish(buffer, type)) {
            return BufferMapping.forReceive(buffer, count, type);
        }
        staged = true;
        MemorySegment staged = BufferMapping.forUpdate(buffer, count, type); // a copy holding the current values
        if (finishers == null) {
            finishers = new ArrayList<>();
        }
        finishers.add(() -> BufferMapping.finishReceive(buffer, count, type, staged, staged.byteSize()));
        return staged;
    }

    /**
     * Raises {@code error} at this rank once the call has run to its end (its copy-backs done), not now: an error
     * only this rank sees (the root's own block too long for its receive block) must not leave the others waiting
     * for its messages.
     */
    void failAtEnd(DeviceException error) {
        atEnd = error;
    }

    /** The schedule, closed with the copy-backs; kept by the communicator if this call keeps and staged nothing. */
    Schedule schedule() {
        if (finishers != null) {
            for (Runnable finisher : finishers) {
                schedule.local(finisher);
            }
        }
        if (atEnd != null) {
            DeviceException error = atEnd;
            schedule.endRound().local(() -> {
                throw error;
            });
        }
        schedule.endRound();
        if (keepAs != null && !staged) {
            comm.collectives().keep(keepAs, a, b, c, d, x, y, z, schedule, held);
        }
        return schedule;
    }

    /** {@code ERR_ARG}/{@code ERR_COUNT} unless {@code counts} and {@code displs} describe {@code n} blocks. */
    static void checkBlocks(int[] counts, int[] displs, int n) {
        if (counts == null || counts.length < n || (displs != null && displs.length < n)) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "counts and displacements need one entry per rank (" + n
                    + ")");
        }
        for (int i = 0; i < n; i++) {
            if (counts[i] < 0) {
                throw MpiErrors.error(ErrorClass.ERR_COUNT, "negative count " + counts[i] + " for rank " + i);
            }
            if (displs != null && displs[i] < 0) {
                throw MpiErrors.error(ErrorClass.ERR_ARG, "negative displacement " + displs[i] + " for rank " + i);
            }
        }
    }

    /** Items a buffer must hold for blocks at {@code displs} of {@code counts} items. */
    static int extent(int[] counts, int[] displs, int n) {
        long end = 0;
        for (int i = 0; i < n; i++) {
            if (counts[i] > 0) {
                end = Math.max(end, (long) displs[i] + counts[i]);
            }
        }
        return Math.toIntExact(end);
    }

    /** {@code n} copies of {@code count}. */
    static int[] repeated(int count, int n) {
        int[] counts = new int[n];
        java.util.Arrays.fill(counts, count);
        return counts;
    }

    /** Displacements of blocks of {@code counts} laid side by side. */
    static int[] packed(int[] counts, int n) {
        int[] displs = new int[n];
        for (int i = 1; i < n; i++) {
            displs[i] = displs[i - 1] + counts[i - 1];
        }
        return displs;
    }
}
