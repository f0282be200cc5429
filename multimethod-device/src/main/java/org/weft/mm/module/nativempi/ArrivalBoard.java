package org.weft.mm.module.nativempi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.lang.foreign.ValueLayout;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Which members of a native communicator have come to its current collective: one counter per member, on a line of
 * its own in a file of the job directory the members map (all on one host; made with the native communicator),
 * counting
 * the collectives the member has come to. A member that comes writes its count and goes into libmpi's blocking
 * collective at once when nobody can need its progress meanwhile; otherwise it first waits, with Weft's progress
 * running, until every member has come (architecture.md, "Collectives by the site's own MPI": once all have come, the
 * blocking call ends whatever else is pending, so holding libmpi's lock through it hangs nothing).
 *
 * <p>The counters are written with release and read with acquire semantics (on x86-64 plain stores and loads; the
 * memory is coherent between the members' cores), without {@code MPI_Win_sync}: no data passes through them, only the
 * fact that a member came.
 */
final class ArrivalBoard implements BooleanSupplier {
    /** Bytes per member: two cache lines, so the adjacent-line prefetcher does not pair two members' counters. */
    static final long LINE = 128;
    private static final VarHandle COUNT = ValueLayout.JAVA_LONG.varHandle();

    private final Arena arena;
    private final MemorySegment lines;
    private final int members;
    private final long myLine;
    /** The collectives this member came to, the current one included. */
    private long came;

    /**
     * A board over {@code memory} ({@link #bytes} of {@code members}, zeroed, mapped in {@code arena}), as member
     * {@code member}.
     */
    ArrivalBoard(MemorySegment memory, Arena arena, int members, int member) {
        this.arena = arena;
        this.lines = memory;
        this.members = members;
        this.myLine = member * LINE;
    }

    /** Bytes a board of {@code members} members takes. */
    static long bytes(int members) {
        return members * LINE;
    }

    /**
     * This member came to its next collective: says so, then — unless {@code nobodyNeedsMe} holds — waits through
     * {@code await} (the device's wait, Weft's progress running) until every member has come. Returns whether it
     * waited.
     */
    boolean come(BooleanSupplier nobodyNeedsMe, Consumer<BooleanSupplier> await) {
        COUNT.setRelease(lines, myLine, ++came);
        if (nobodyNeedsMe.getAsBoolean()) {
            return false;
        }
        await.accept(this);
        return true;
    }

    /** Unmaps this member's view (the others keep theirs). */
    void close() {
        arena.close();
    }

    /** Whether every member has come to this member's current collective. */
    @Override
    public boolean getAsBoolean() {
        for (int m = 0; m < members; m++) {
            if ((long) COUNT.getAcquire(lines, m * LINE) < came) {
                return false;
            }
        }
        return true;
    }
}
