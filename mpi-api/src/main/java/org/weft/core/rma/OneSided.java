package org.weft.core.rma;

import java.lang.foreign.MemorySegment;

import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.datatype.Typemap;
import org.weft.core.error.MpiErrors;

/**
 * The one-sided operations of an origin ({@code MPI_Put}, {@code MPI_Get}, {@code MPI_Accumulate},
 * {@code MPI_Get_accumulate}, {@code MPI_Fetch_and_op}, {@code MPI_Compare_and_swap}) on a {@link Window}:
 * each checks its arguments, its epoch and the target range, then sends one request; those that return data wait
 * for it. Ranks are the window group's; {@code PROC_NULL} does nothing.
 */
public final class OneSided {
    private OneSided() {
    }

    /** {@code MPI_Put}. */
    public static void put(Window w, Object buf, int count, TypeDescriptor type, int rank, long disp,
                           int targetCount, TypeDescriptor targetType) {
        write(w, RmaFrame.PUT, null, buf, count, type, rank, disp, targetCount, targetType);
    }

    /** {@code MPI_Get}: returns when the data has arrived. */
    public static void get(Window w, Object buf, int count, TypeDescriptor type, int rank, long disp,
                           int targetCount, TypeDescriptor targetType) {
        synchronized (w) {
            if (Communicator.isProcNull(rank)) {
                return;
            }
            long offset = checked(w, buf, count, type, rank, disp, targetCount, targetType);
            fetch(w, buf, count, type, rank, RmaFrame.GET, offset, targetCount, targetType, 0, null, 0, null);
        }
    }

    /** {@code MPI_Accumulate} with a predefined operation, {@code MPI_REPLACE} or {@code MPI_NO_OP}. */
    public static void accumulate(Window w, Object buf, int count, TypeDescriptor type, int rank, long disp,
                                  int targetCount, TypeDescriptor targetType, String opName) {
        write(w, RmaFrame.ACCUMULATE, AccumulateOp.named(opName), buf, count, type, rank, disp, targetCount,
                targetType);
    }

    /** A put ({@code op == null}) or an accumulate: sent, and complete at the target at the next sync. */
    private static void write(Window w, int kind, AccumulateOp op, Object buf, int count, TypeDescriptor type,
                              int rank, long disp, int targetCount, TypeDescriptor targetType) {
        synchronized (w) {
            if (Communicator.isProcNull(rank)) {
                return;
            }
            long offset = checked(w, buf, count, type, rank, disp, targetCount, targetType);
            if (op != null) {
                checkAccumulable(w, op, type, targetType);
            }
            SharedWindow shared = w.shared();
            if (shared != null) {
                shared.write(w.origin(), kind, op, buf, count, type, rank, offset, targetCount, targetType);
                return;
            }
            w.origin().send(world(w, rank), kind, 0, offset, targetCount, targetType, op == null ? 0 : op.ordinal(),
                    buf, count, type, null);
            w.wrote(rank);
        }
    }

    /**
     * {@code MPI_Get_accumulate} (and {@code MPI_Fetch_and_op}): the target's data before the operation arrives
     * in {@code result}; with {@code MPI_NO_OP} the origin buffer is not read.
     */
    public static void getAccumulate(Window w, Object buf, int count, TypeDescriptor type, Object result,
                                     int resultCount, TypeDescriptor resultType, int rank, long disp,
                                     int targetCount, TypeDescriptor targetType, String opName) {
        synchronized (w) {
            AccumulateOp op = AccumulateOp.named(opName);
            if (Communicator.isProcNull(rank)) {
                return;
            }
            long offset = checked(w, result, resultCount, resultType, rank, disp, targetCount, targetType);
            checkAccumulable(w, op, resultType, targetType);
            boolean sends = op != AccumulateOp.NO_OP;
            if (sends) {
                checkSignature(count, type, targetCount, targetType);
                checkAccumulable(w, op, type, targetType);
            }
            fetch(w, result, resultCount, resultType, rank, RmaFrame.GET_ACCUMULATE, offset, targetCount,
                    targetType, op.ordinal(), sends ? buf : null, count, sends ? type : null);
        }
    }

    /** {@code MPI_Compare_and_swap}: one element of a predefined type. */
    public static void compareAndSwap(Window w, Object origin, Object compare, Object result, TypeDescriptor type,
                                      int rank, long disp) {
        synchronized (w) {
            if (Communicator.isProcNull(rank)) {
                return;
            }
            TypeDescriptor.check(type);
            if (!type.isPredefined() || type.pairLayout() != null || type.isPacked()) {
                throw MpiErrors.error(ErrorClass.ERR_TYPE, "compare-and-swap takes one element of a predefined"
                        + " type, not " + type);
            }
            long offset = checked(w, result, 1, type, rank, disp, 1, type);
            BufferMapping.checkedBytes(origin, 1, type);
            BufferMapping.checkedBytes(compare, 1, type);
            MemorySegment into = BufferMapping.forReceive(result, 1, type);
            if (w.shared() != null) {
                w.shared().fetch(w.origin(), RmaFrame.COMPARE_AND_SWAP, into, rank, offset, 1, type, 0, origin, 1,
                        type, compare);
                BufferMapping.finishReceive(result, 1, type, into, into.byteSize());
                return;
            }
            OriginRequests requests = w.origin();
            int tag = requests.replyTag();
            DeviceRequest reply = requests.expectReply(world(w, rank), tag, into);
            requests.send(world(w, rank), RmaFrame.COMPARE_AND_SWAP, tag, offset, 1, type, 0, origin, 1, type,
                    compare);
            requests.await(reply);
            BufferMapping.finishReceive(result, 1, type, into, reply.byteCount());
        }
    }

    /** Sends a request whose reply fills {@code count} items of {@code type} in {@code buf}, and waits for it. */
    private static void fetch(Window w, Object buf, int count, TypeDescriptor type, int rank, int kind, long offset,
                              int targetCount, TypeDescriptor targetType, int op, Object data, int dataCount,
                              TypeDescriptor dataType) {
        MemorySegment into = BufferMapping.forReceive(buf, count, type);
        if (w.shared() != null) {
            w.shared().fetch(w.origin(), kind, into, rank, offset, targetCount, targetType, op, data, dataCount,
                    dataType, null);
            BufferMapping.finishReceive(buf, count, type, into, into.byteSize());
            return;
        }
        OriginRequests requests = w.origin();
        int tag = requests.replyTag();
        DeviceRequest reply = requests.expectReply(world(w, rank), tag, into);
        requests.send(world(w, rank), kind, tag, offset, targetCount, targetType, op, data, dataCount, dataType,
                null);
        requests.await(reply);
        BufferMapping.finishReceive(buf, count, type, into, reply.byteCount());
    }

    /** Arguments, epoch and range of an operation whose origin side is {@code count} items of {@code type}. */
    private static long checked(Window w, Object buf, int count, TypeDescriptor type, int rank, long disp,
                                int targetCount, TypeDescriptor targetType) {
        w.checkUsable();
        BufferMapping.checkedBytes(buf, count, type);
        if (targetCount < 0) {
            throw MpiErrors.error(ErrorClass.ERR_COUNT, "negative target count " + targetCount);
        }
        TypeDescriptor.check(targetType);
        checkSignature(count, type, targetCount, targetType);
        return w.targetOffset(rank, disp, targetCount, targetType);
    }

    private static void checkSignature(int count, TypeDescriptor type, int targetCount, TypeDescriptor targetType) {
        long originBytes = (long) count * type.byteSize();
        long targetBytes = (long) targetCount * targetType.byteSize();
        if (originBytes != targetBytes) {
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "the origin's " + count + " x " + type + " (" + originBytes
                    + " bytes) do not match the target's " + targetCount + " x " + targetType + " (" + targetBytes
                    + " bytes)");
        }
    }

    /** Both sides are made of one predefined type on which the operation is defined: else ERR_TYPE or ERR_OP. */
    private static void checkAccumulable(Window w, AccumulateOp op, TypeDescriptor type, TypeDescriptor targetType) {
        if (type.pairLayout() != null || targetType.pairLayout() != null || op.onPairs()) {
            checkPairs(w, op, type, targetType);
            return;
        }
        if (type.base() != targetType.base()) {
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "an accumulate's origin (" + type + ") and target ("
                    + targetType + ") must be made of the same predefined type");
        }
        Typemap runs = targetType.typemap();
        for (int r = 0; r < runs.runs(); r++) {
            w.combiners().combiner(op, targetType.base().ordinal(), runs.elementBytes(r));
        }
        Typemap origin = type.typemap();
        for (int r = 0; r < origin.runs(); r++) {
            if (origin.elementBytes(r) != runs.elementBytes(0)) {
                throw MpiErrors.error(ErrorClass.ERR_TYPE, "an accumulate's origin and target elements differ");
            }
        }
    }

    /**
     * MINLOC and MAXLOC (and REPLACE, NO_OP) on pairs: origin and target of one predefined pair type, so that the
     * target's records, gathered run after run, are the packed records the origin sends.
     */
    private static void checkPairs(Window w, AccumulateOp op, TypeDescriptor type, TypeDescriptor targetType) {
        if (type.pairLayout() == null || targetType.pairLayout() == null) {
            throw MpiErrors.error(ErrorClass.ERR_OP, "MPI_" + op + " is defined on the pair types only (MPI.INT2,"
                    + " SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT), not " + type + " and " + targetType);
        }
        if (type.pairLayout().value() != targetType.pairLayout().value()) {
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "an accumulate's origin (" + type + ") and target ("
                    + targetType + ") must be the same pair type");
        }
        if (op != AccumulateOp.NO_OP) {
            w.combiners().combiner(op, AccumulateOp.baseCode(targetType), targetType.byteSize());
        }
    }

    private static int world(Window w, int rank) {
        return w.communicator().toWorld(rank);
    }
}
