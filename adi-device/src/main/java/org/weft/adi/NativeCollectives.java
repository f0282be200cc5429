package org.weft.adi;

import java.lang.foreign.MemorySegment;
import java.util.function.BooleanSupplier;

/**
 * Collectives a device can hand to a native MPI library underneath it (PACX-MPI's and MPICH-G2's way: inside one
 * machine the vendor's MPI runs the communicator's collectives). A device offers it ({@link Device#nativeCollectives})
 * when it runs inside a native job (one {@code mpirun}); the layer above asks whether it {@link #reaches} every member
 * of a communicator, and if so makes a {@link Group} — a native communicator of those members — and calls it.
 *
 * <p><b>Contract.</b> {@link #create} and every call of a {@link Group} are collective over the group's members.
 * {@link #create} blocks in the native library (the layer above makes sure every member has arrived first). A
 * group's call is the library's blocking collective when the members share a host: it says it came (in memory they
 * share) and goes in at once when nothing of this process can need its progress meanwhile (the device's own
 * requests and queues, and the caller's {@code idle} given to {@link #create}), else only once every member came,
 * waiting in the device's wait ({@link Device#await}) with its progress running — once all have come, nothing can
 * keep the blocking call from ending. Members on several hosts start the library's nonblocking form and wait for it
 * in the device's wait. Every member must make the same calls in the same order,
 * one at a time per group. Buffers may be heap or native segments (the device stages heap data in native memory: the
 * collector may move an array while the library holds its address). Reductions take a predefined {@link Element}
 * and {@link Operation}; the other collectives move bytes. {@code null} as a send segment means
 * {@code MPI_IN_PLACE}.
 * A failed native call raises {@link DeviceException} with the MPI error class the library gave.
 */
public interface NativeCollectives {
    /** Element types of native reductions: the Java primitives other than {@code boolean}. */
    enum Element { BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE }

    /** The predefined reduction operations a native library runs (MINLOC and MAXLOC stay Weft's). */
    enum Operation { MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR }

    /**
     * Whether this process and world rank {@code worldRank} run in the same native job, so that a native communicator
     * can hold both. Every member of a job computes the same answer for the same pair (it depends on the descriptors
     * all exchanged).
     */
    boolean reaches(int worldRank);

    /**
     * Makes a native communicator of {@code worldRanks} (its native rank {@code i} is {@code worldRanks[i]}).
     * Collective over those ranks, which all pass the same array and {@code key} (distinct among groups being made at
     * once, e.g. the Weft communicator's context id). {@code idle} says whether nothing the caller's layer started
     * (its nonblocking collectives) needs this process's progress now; it is asked at each call.
     */
    Group create(int[] worldRanks, int key, BooleanSupplier idle);

    /** A native communicator; its methods are the MPI collectives of the same names. */
    interface Group extends AutoCloseable {
        /** {@code MPI_Barrier}. */
        void barrier();

        /** {@code MPI_Bcast} of {@code data}'s bytes from {@code root}. */
        void bcast(MemorySegment data, int root);

        /** {@code MPI_Reduce} of {@code count} elements; {@code recv} matters at the root only. */
        void reduce(MemorySegment send, MemorySegment recv, int count, Element element, Operation op, int root);

        /** {@code MPI_Allreduce} of {@code count} elements. */
        void allReduce(MemorySegment send, MemorySegment recv, int count, Element element, Operation op);

        /** {@code MPI_Reduce_scatter_block}: {@code send} holds {@code count} elements per member. */
        void reduceScatterBlock(MemorySegment send, MemorySegment recv, int count, Element element, Operation op);

        /** {@code MPI_Allgather} of bytes: {@code recv} holds one block per member. */
        void allGather(MemorySegment send, MemorySegment recv);

        /** {@code MPI_Alltoall} of bytes: {@code send} and {@code recv} hold one block per member. */
        void allToAll(MemorySegment send, MemorySegment recv);

        /** {@code MPI_Gather} of bytes: {@code recv}, one block per member, matters at the root only. */
        void gather(MemorySegment send, MemorySegment recv, int root);

        /** {@code MPI_Scatter} of bytes: {@code send}, one block per member, matters at the root only. */
        void scatter(MemorySegment send, MemorySegment recv, int root);

        /** {@code MPI_Comm_free}; nothing once the native library is finalised. */
        @Override
        void close();
    }
}
