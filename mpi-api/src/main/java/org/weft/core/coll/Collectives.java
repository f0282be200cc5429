package org.weft.core.coll;

import java.lang.foreign.MemorySegment;

import org.weft.adi.ErrorClass;
import org.weft.core.coll.algo.BinomialBcast;
import org.weft.core.coll.algo.BinomialReduce;
import org.weft.core.coll.algo.OrderedLinearReduce;
import org.weft.core.coll.algo.ReduceBcastAllreduce;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;

/**
 * The blocking collectives on user buffers: checks the arguments, maps the buffers to segments (as
 * point-to-point does: Java arrays and direct buffers, derived types packed to staging), picks the algorithm
 * and unpacks staged results. Errors are {@code DeviceException}s with the MPI error class, for the facade's error
 * handler. The algorithms are stateless, so one set serves every communicator and runtime in the JVM.
 *
 * <p>Buffers that matter only at the root (the receive buffer of a reduction) are neither checked nor touched
 * elsewhere, so non-roots may pass {@code null}.
 */
public final class Collectives {
    private static final BcastAlgorithm BCAST = new BinomialBcast();
    private static final ReduceAlgorithm COMMUTATIVE_REDUCE = new BinomialReduce();
    private static final ReduceAlgorithm ORDERED_REDUCE = new OrderedLinearReduce();
    private static final AllreduceAlgorithm ALLREDUCE =
            new ReduceBcastAllreduce(COMMUTATIVE_REDUCE, ORDERED_REDUCE, BCAST);

    private Collectives() {
    }

    /** {@code MPI_Bcast}. */
    public static void bcast(Communicator comm, Object buf, int count, TypeDescriptor type, int root) {
        checkRoot(comm, root);
        if (comm.rank() == root) {
            BCAST.bcast(comm, BufferMapping.forSend(buf, count, type), root, CollectiveTags.BCAST);
        } else {
            MemorySegment data = BufferMapping.forReceive(buf, count, type);
            BCAST.bcast(comm, data, root, CollectiveTags.BCAST);
            BufferMapping.finishReceive(buf, count, type, data, data.byteSize());
        }
    }

    /** {@code MPI_Reduce}; {@code recvbuf} matters at the root only. */
    public static void reduce(Communicator comm, Object sendbuf, Object recvbuf, int count, TypeDescriptor type,
                              Reduction op, int root) {
        checkRoot(comm, root);
        MemorySegment send = BufferMapping.forSend(sendbuf, count, type);
        boolean isRoot = comm.rank() == root;
        MemorySegment recv = isRoot ? BufferMapping.forReceive(recvbuf, count, type) : null;
        reduceAlgorithm(op).reduce(comm, send, recv, count, op, root, CollectiveTags.REDUCE);
        if (isRoot) {
            BufferMapping.finishReceive(recvbuf, count, type, recv, recv.byteSize());
        }
    }

    /** {@code MPI_Reduce} with {@code MPI_IN_PLACE} at the root: {@code buf} is the root's input and output. */
    public static void reduceInPlace(Communicator comm, Object buf, int count, TypeDescriptor type, Reduction op,
                                     int root) {
        reduce(comm, buf, buf, count, type, op, root);
    }

    /** {@code MPI_Allreduce}. */
    public static void allReduce(Communicator comm, Object sendbuf, Object recvbuf, int count,
                                 TypeDescriptor type, Reduction op) {
        MemorySegment send = BufferMapping.forSend(sendbuf, count, type);
        MemorySegment recv = BufferMapping.forReceive(recvbuf, count, type);
        ALLREDUCE.allreduce(comm, send, recv, count, op);
        BufferMapping.finishReceive(recvbuf, count, type, recv, recv.byteSize());
    }

    /** {@code MPI_Allreduce} with {@code MPI_IN_PLACE}: {@code buf} is every rank's input and output. */
    public static void allReduceInPlace(Communicator comm, Object buf, int count, TypeDescriptor type,
                                        Reduction op) {
        allReduce(comm, buf, buf, count, type, op);
    }

    /** {@code MPI_Reduce_local}: {@code inoutbuf[i] = inbuf[i] op inoutbuf[i]}. */
    public static void reduceLocal(Object inbuf, Object inoutbuf, int count, TypeDescriptor type, Reduction op) {
        MemorySegment in = BufferMapping.forSend(inbuf, count, type);
        MemorySegment inout = BufferMapping.forReceive(inoutbuf, count, type);
        if (BufferMapping.needsFinish(inoutbuf, type)) {
            inout = BufferMapping.forSend(inoutbuf, count, type); // a staged copy holding the current values
        }
        op.combiner().combine(in, inout, count);
        BufferMapping.finishReceive(inoutbuf, count, type, inout, inout.byteSize());
    }

    private static ReduceAlgorithm reduceAlgorithm(Reduction op) {
        return op.commutative() ? COMMUTATIVE_REDUCE : ORDERED_REDUCE;
    }

    /** {@code ERR_ROOT} unless {@code root} is a rank of {@code comm}. */
    public static void checkRoot(Communicator comm, int root) {
        if (root < 0 || root >= comm.size()) {
            throw MpiErrors.error(ErrorClass.ERR_ROOT, "root " + root + " is not a rank of " + comm.name()
                    + " (size " + comm.size() + ")");
        }
    }
}
