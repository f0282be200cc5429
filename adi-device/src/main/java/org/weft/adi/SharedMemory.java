package org.weft.adi;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Memory that ranks of one host map together, for collectives that read and write it directly instead of sending
 * messages (Open MPI's {@code coll/sm}, MPICH's release-gather). A device offers it ({@link Device#sharedMemory})
 * when it has a method that shares memory; the layer above creates one segment per communicator whose members it
 * {@link #reaches} all, and falls back to messages otherwise.
 *
 * <p>A segment is a file the creator makes under a name the others are told; each member maps it, and the creator
 * {@link #remove}s the name once all have, so nothing is left behind even when a process dies later.
 */
public interface SharedMemory {
    /** Whether this process and world rank {@code worldRank} communicate through this shared memory. */
    boolean reaches(int worldRank);

    /** Creates a new segment of {@code bytes} zeroed bytes named {@code name}, mapped into {@code arena}. */
    MemorySegment create(String name, long bytes, Arena arena) throws IOException;

    /** Maps the segment {@code name} of {@code bytes} bytes that another rank created, into {@code arena}. */
    MemorySegment open(String name, long bytes, Arena arena) throws IOException;

    /** Removes the name of a segment (mappings stay valid); nothing if it is gone already. */
    void remove(String name);

    /**
     * Wakes world rank {@code worldRank} if it sleeps in the device's idle strategy: this process wrote shared
     * memory it may wait on. Costs a load of one cache line when it does not sleep.
     */
    void wake(int worldRank);

    /**
     * Whether the writers of small rooted collectives (a bcast's root, a reduce's leaves) may run far ahead of their
     * readers through slots of their own, as Open MPI's run ahead through its FIFOs. Off unless asked for: with more
     * ranks than cores and no real-time priority the readers fall behind and every call got slower.
     */
    default boolean runsAhead() {
        return false;
    }

    /**
     * Whether this process may copy straight out of and into world rank {@code worldRank}'s memory
     * ({@link #copyFrom}, {@link #copyTo}: cross-memory attach), as far as it knows: a collective's large data then
     * moves between the members' buffers once, without messages. Binds the system calls at the first ask.
     */
    default boolean copiesPeerMemory(int worldRank) {
        return false;
    }

    /**
     * Copies {@code bytes} at {@code address} in world rank {@code worldRank}'s process into {@code into} (native
     * memory) at {@code at}; false when it cannot (nothing may then be assumed of those bytes of {@code into}).
     */
    default boolean copyFrom(int worldRank, long address, MemorySegment into, long at, long bytes) {
        return false;
    }

    /**
     * Copies {@code bytes} of {@code from} (native memory) at {@code at} to {@code address} in world rank
     * {@code worldRank}'s process; false when it cannot.
     */
    default boolean copyTo(int worldRank, long address, MemorySegment from, long at, long bytes) {
        return false;
    }
}
