package org.weft.core.comm;

import java.lang.foreign.MemorySegment;

import org.weft.adi.Device;
import org.weft.adi.DeviceRequest;
import org.weft.adi.SendMode;
import org.weft.core.coll.Collectives;
import org.weft.core.coll.Reduction;
import org.weft.core.coll.op.PredefinedOp;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.TypeDescriptor;

/**
 * The few collective and point-to-point steps that communicator creation needs, on {@code int[]} buffers: an
 * AND and a gather over a communicator (both through the existing allreduce, in the communicator's collective
 * context), a broadcast, and a swap between two leaders. Kept in one place so that creation depends on the
 * collectives through this class only.
 */
public final class CreationCalls {
    /** Tag of the leaders' swaps over an intercommunicator's collective context. */
    static final int LEADER_SWAP_TAG = 0x4943_0000;

    private static final TypeDescriptor INT = TypeDescriptor.predefined("MPI_INT", BaseType.INT, 1);
    private static final Reduction AND = new Reduction(PredefinedOp.BAND.bind(INT), true);
    private static final Reduction SUM = new Reduction(PredefinedOp.SUM.bind(INT), true);

    private CreationCalls() {
    }

    /** Replaces {@code values} on every rank of {@code comm} by their bitwise AND over all ranks. */
    static void andAll(Communicator comm, int[] values) {
        Collectives.allReduce(comm, values, values, values.length, INT, AND).run();
    }

    /**
     * Every rank's {@code mine} (all of the same length), in rank order: an allgather done as a sum of arrays that
     * are zero but for each rank's own slot, since creation runs rarely and on few ints.
     */
    public static int[] allGather(Communicator comm, int[] mine) {
        int[] all = new int[mine.length * comm.size()];
        System.arraycopy(mine, 0, all, mine.length * comm.rank(), mine.length);
        sumAll(comm, all);
        return all;
    }

    /** Replaces {@code values} on every rank of {@code comm} by their element-wise sum over all ranks. */
    public static void sumAll(Communicator comm, int[] values) {
        Collectives.allReduce(comm, values, values, values.length, INT, SUM).run();
    }

    /** {@code values} of {@code root} on every rank of {@code comm}. */
    public static void bcast(Communicator comm, int[] values, int root) {
        Collectives.bcast(comm, values, values.length, INT, root).run();
    }

    /**
     * Sends {@code out} to rank {@code peer} of {@code comm} (of its peer group) and receives {@code in} from it,
     * with {@code tag} in {@code context}; both sides call it.
     */
    static void swap(Communicator comm, int context, int peer, int tag, int[] out, int[] in) {
        Device device = comm.device();
        int world = comm.toWorld(peer);
        DeviceRequest recv = device.irecv(MemorySegment.ofArray(in), world, tag, context);
        DeviceRequest send = device.isend(MemorySegment.ofArray(out), world, tag, context, SendMode.STANDARD);
        device.await(send);
        device.await(recv);
    }
}
