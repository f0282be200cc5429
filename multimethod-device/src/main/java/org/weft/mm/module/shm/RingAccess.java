package org.weft.mm.module.shm;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** The typed accesses to ring memory, shared by the reader and the writer: little-endian, aligned. */
final class RingAccess {
    /** Counters: {@code getAcquire}/{@code setRelease} on (segment, offset). */
    static final VarHandle COUNTER = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();
    /** The closed flag: {@code getAcquire}/{@code setRelease} on (segment, offset). */
    static final VarHandle FLAG = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN).varHandle();
    /** A record's Length, which publishes it: {@code getAcquire}/{@code setRelease} on (segment, offset). */
    static final VarHandle LENGTH = FLAG;

    // Plain accesses without the alignment check an aligned layout makes on every access (the ring's layout keeps
    // them aligned anyway): ~0.3 ns each, a dozen a message. The atomic modes above need aligned layouts.
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private RingAccess() {
    }
}
