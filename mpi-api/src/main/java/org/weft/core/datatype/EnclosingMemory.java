package org.weft.core.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.nio.Buffer;

/**
 * The memory around a buffer, for datatypes that reach outside it: a vector with a negative stride over
 * {@code MPI.slice(buf, k)} touches bytes before the slice's start, which the bindings allow (they pass the
 * address) and programs use. Weft allows them when they lie inside the array or buffer the slice was cut from, and
 * only then: every access goes through a segment over that array or buffer, so bounds hold.
 *
 * <p>A heap buffer knows that memory itself: its whole array, from {@code arrayOffset()}. A direct buffer does not,
 * so {@code MPI.slice} records each writable direct buffer it cuts a slice from ({@link #sliced}), weakly and once,
 * with its native address range; a direct buffer that lies inside a recorded one, and needs to, is placed in the
 * widest such (the first parent of a slice of a slice). Recording per parent rather than per slice keeps
 * {@code MPI.slice} as fast as the JDK's slice when a program slices the same buffers over and over (a weak record
 * per slice took microseconds a slice, in reference processing). A parent the program no longer reaches may be
 * collected while a slice of it lives; reaching before such a slice is then refused ({@code ERR_BUFFER}), never
 * unsafe.
 *
 * <p>This is the package's one static besides {@code BufferMapping}'s per-thread cache, and it holds no state of a
 * job: slices are made before {@code MPI.Init} and outside any runtime. Only the rare path looks here: items that
 * lie inside the buffer itself never do.
 */
public final class EnclosingMemory {
    /**
     * Where a buffer lies: its index 0 is byte {@code origin} of {@code memory} (an array, or a buffer addressed
     * from its index 0).
     */
    record Placement(Object memory, long origin) {
    }

    private static final SlicedBuffers SLICED = new SlicedBuffers();

    private EnclosingMemory() {
    }

    /** Notes that {@code slice} was cut from {@code parent} (see the class comment) and returns it. */
    public static <B extends Buffer> B sliced(B slice, Buffer parent) {
        if (parent.isDirect() && !parent.isReadOnly()) {
            SLICED.add(parent);
        }
        return slice;
    }

    /** Where {@code buffer} lies in the memory around it, or {@code null} when nothing is known around it. */
    static Placement of(Buffer buffer) {
        if (buffer.hasArray()) {
            return new Placement(buffer.array(), (long) buffer.arrayOffset() * BufferMapping.elementBytes(buffer));
        }
        if (!buffer.isDirect()) {
            return null;
        }
        return SLICED.around(MemorySegment.ofBuffer(buffer.duplicate().clear()).address());
    }

    /**
     * The writable direct buffers slices were cut from: an open-addressing table by identity, each entry a weak
     * reference with the buffer's native address range. Cleared entries go when the table is rebuilt.
     */
    private static final class SlicedBuffers {
        private record Entry(WeakReference<Buffer> buffer, long address, long bytes) {
        }

        /** Written under the lock; read without it by {@link #add}'s check, which the lock then repeats. */
        private volatile Entry[] table = new Entry[16];
        private int used;
        /**
         * The two buffers recorded or found last, kept reachable until others are sliced (as RecentSegments keeps
         * some): programs slice a send and a receive buffer in turn. Volatile, so that a thread that skips the
         * look-up because of them also sees the table entry written before.
         */
        private volatile Buffer last;
        private volatile Buffer beforeLast;

        /**
         * Records {@code parent}; a buffer recorded already (the usual case) takes no lock and allocates nothing,
         * and the two recorded last are not even looked up: with that look-up {@code MPI.slice} of a direct buffer
         * took ~12 ns against ~3 for the JDK's slice, without it the same as the JDK's ({@code SliceBench}).
         */
        void add(Buffer parent) {
            if (parent != last && parent != beforeLast) {
                if (!holds(table, parent)) {
                    addLocked(parent);
                }
                beforeLast = last; // threads may race to set these: a stale value only costs a look-up
                last = parent;
            }
        }

        private static boolean holds(Entry[] table, Buffer parent) {
            int mask = table.length - 1;
            for (int i = System.identityHashCode(parent) & mask; ; i = (i + 1) & mask) {
                Entry e = table[i]; // an element, once set, never changes: rebuilding makes a new table
                if (e == null || e.buffer().get() == parent) {
                    return e != null;
                }
            }
        }

        private synchronized void addLocked(Buffer parent) {
            if (holds(table, parent)) {
                return;
            }
            if (2 * (used + 1) > table.length) {
                rebuild();
            }
            Entry[] table = this.table;
            int mask = table.length - 1;
            int i = System.identityHashCode(parent) & mask;
            while (table[i] != null) {
                i = (i + 1) & mask;
            }
            MemorySegment memory = MemorySegment.ofBuffer(parent.duplicate().clear());
            table[i] = new Entry(new WeakReference<>(parent), memory.address(), memory.byteSize());
            used++;
        }

        /** The live entries in a table at most half full. */
        private void rebuild() {
            Entry[] old = table;
            int live = 0;
            for (Entry e : old) {
                live += e != null && e.buffer().get() != null ? 1 : 0;
            }
            Entry[] rebuilt = new Entry[Math.max(16, Integer.highestOneBit(Math.max(1, live)) * 4)];
            int mask = rebuilt.length - 1;
            used = 0;
            for (Entry e : old) {
                Buffer buffer = e == null ? null : e.buffer().get();
                if (buffer != null) {
                    int i = System.identityHashCode(buffer) & mask;
                    while (rebuilt[i] != null) {
                        i = (i + 1) & mask;
                    }
                    rebuilt[i] = e;
                    used++;
                }
            }
            table = rebuilt;
        }

        /** The widest live recorded buffer whose memory holds {@code address}, placed around it; or {@code null}. */
        Placement around(long address) {
            Buffer widest = null;
            long widestAddress = 0;
            long widestBytes = -1;
            for (Entry e : table) {
                Buffer buffer = e == null ? null : e.buffer().get();
                if (buffer != null && e.address() <= address && address <= e.address() + e.bytes()
                        && e.bytes() > widestBytes) {
                    widest = buffer;
                    widestAddress = e.address();
                    widestBytes = e.bytes();
                }
            }
            return widest == null ? null : new Placement(widest, address - widestAddress);
        }
    }
}
