package org.weft.core.datatype;

import java.lang.foreign.MemorySegment;

/**
 * A receive that lands in staging and must be unpacked into the user's buffer when it completes: a
 * non-contiguous type or a {@code boolean[]}. A nonblocking or persistent request holds one and calls
 * {@link #finish} each time its receive completes, before the user can see the data.
 */
public final class StagedReceive {
    private final Object buffer;
    private final int count;
    private final TypeDescriptor type;
    private final MemorySegment staging;

    StagedReceive(Object buffer, int count, TypeDescriptor type, MemorySegment staging) {
        this.buffer = buffer;
        this.count = count;
        this.type = type;
        this.staging = staging;
    }

    /** Unpacks the {@code receivedBytes} bytes that arrived into the user's buffer. */
    public void finish(long receivedBytes) {
        BufferMapping.finishReceive(buffer, count, type, staging, receivedBytes);
    }
}
