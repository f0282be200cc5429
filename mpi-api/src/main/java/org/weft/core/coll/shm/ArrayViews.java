package org.weft.core.coll.shm;

import java.lang.foreign.MemorySegment;

import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;

/**
 * The segments over the user's arrays that the last few shared-memory collectives used, so that a collective
 * called again and again on the same arrays makes no segment per call (the schedules' path keeps whole schedules
 * for that). Only arrays of contiguous types are remembered: a view of an array depends on nothing but the array;
 * a buffer's depends on its position, which may move between calls. The site's collectives
 * ({@code coll.site}) use it too.
 */
public final class ArrayViews {
    private static final int SIZE = 4;

    private final Object[] buffers = new Object[SIZE];
    private final int[] counts = new int[SIZE];
    private final TypeDescriptor[] types = new TypeDescriptor[SIZE];
    private final boolean[] receives = new boolean[SIZE];
    private final MemorySegment[] views = new MemorySegment[SIZE];
    private int next;

    /**
     * The bytes of {@code count} items of {@code type} in {@code buffer}, which needs no staging: a view to read
     * ({@code receive} false) or to write.
     */
    public MemorySegment view(Object buffer, int count, TypeDescriptor type, boolean receive) {
        for (int i = 0; i < SIZE; i++) {
            if (buffers[i] == buffer && buffer != null && counts[i] == count && types[i] == type
                    && receives[i] == receive) {
                return views[i];
            }
        }
        MemorySegment view = receive ? BufferMapping.forReceive(buffer, count, type)
                : BufferMapping.forSend(buffer, count, type);
        if (buffer != null && buffer.getClass().isArray()) {
            int i = next;
            next = (i + 1) % SIZE;
            buffers[i] = buffer;
            counts[i] = count;
            types[i] = type;
            receives[i] = receive;
            views[i] = view;
        }
        return view;
    }

    /** Forgets every array (the communicator was freed: it holds them no longer). */
    public void clear() {
        java.util.Arrays.fill(buffers, null);
        java.util.Arrays.fill(types, null);
        java.util.Arrays.fill(views, null);
    }
}
