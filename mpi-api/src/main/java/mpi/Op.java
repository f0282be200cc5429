package mpi;

import java.nio.Buffer;
import java.nio.ByteBuffer;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.coll.Reduction;
import org.weft.core.coll.op.ArrayStagingCombiner;
import org.weft.core.coll.op.BufferStagingCombiner;
import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.op.LocPairKernel;
import org.weft.core.coll.op.PredefinedOp;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;

/**
 * A reduction operation ({@code MPI_Op}): one of the predefined operations of {@link MPI} or a user function
 * ({@code MPI_Op_create}). A user operation is reusable in any number of collectives.
 *
 * <p>A user function is called with Java arrays of the datatype's base type (the {@code Object} form of
 * {@link UserFunction#call}), or with direct byte buffers (the {@code ByteBuffer} form) when only that form is
 * overridden or when the collective's buffers are direct buffers and that form is overridden (Open MPI's
 * bindings call the buffer form for buffer collectives).
 */
public final class Op implements Freeable {
    private final String name;
    private final UserFunction function;
    private final boolean commutative;
    private final boolean predefined;
    private final boolean arrayForm;
    private final boolean bufferForm;
    private volatile boolean freed;
    /**
     * A predefined operation's last binding (its kernels keep no state, so one serves every call on the type):
     * a collective in a loop then binds without making a combiner, a {@link Reduction} and the kernel's name.
     */
    private volatile Bound lastBound;

    private record Bound(TypeDescriptor type, Reduction reduction) {
    }

    /** {@code MPI_Op_create} from a user function. */
    public Op(UserFunction function, boolean commute) {
        this(null, function, commute, false);
    }

    private Op(String name, UserFunction function, boolean commute, boolean predefined) {
        this.name = name;
        this.function = function;
        this.commutative = commute;
        this.predefined = predefined;
        this.arrayForm = function != null && overrides(function, Object.class);
        this.bufferForm = function != null && overrides(function, ByteBuffer.class);
    }

    static Op predefined(String name, boolean commute) {
        return new Op(name, null, commute, true);
    }

    /** {@code MPI_Op_commutative}. */
    public boolean isCommutative() {
        return commutative;
    }

    /** {@code MPI_Op_free}; predefined operations cannot be freed ({@code ERR_OP}). */
    public void free() throws MPIException {
        if (predefined) {
            throw Errors.onWorld("MPI_Op_free", ErrorClass.ERR_OP, "cannot free the predefined operation " + name);
        }
        freed = true;
    }

    public boolean isNull() {
        return freed;
    }

    /** The MPI name of a predefined operation ({@code MPI_SUM}), {@code null} for a user-defined one. */
    String predefinedName() {
        return predefined ? name : null;
    }

    UserFunction function() {
        return function;
    }

    /**
     * {@code op} ready for one collective call on {@code count} items of {@code type} held in {@code buffer}
     * (which decides the user function's form): {@code ERR_OP} for a null or freed operation or one that is
     * not defined on the type, {@code ERR_TYPE} for a null or freed type.
     */
    static Reduction bind(Op op, Datatype type, Object buffer) {
        if (op == null || op.freed) {
            throw MpiErrors.error(ErrorClass.ERR_OP, op == null ? "the operation is null" : "the operation was freed");
        }
        TypeDescriptor descriptor = TypeDescriptor.check(Datatype.descriptorOf(type));
        if (!op.predefined) {
            return new Reduction(op.userCombiner(descriptor, type, buffer instanceof Buffer), op.commutative);
        }
        Bound last = op.lastBound;
        if (last == null || last.type != descriptor) {
            last = new Bound(descriptor, new Reduction(op.predefinedCombiner(descriptor), op.commutative,
                    op.predefinedOp()));
            op.lastBound = last;
        }
        return last.reduction;
    }

    /** The {@link PredefinedOp} this predefined operation is, or {@code null} (MINLOC, MAXLOC, REPLACE, NO_OP). */
    private PredefinedOp predefinedOp() {
        for (PredefinedOp op : PredefinedOp.values()) {
            if (name.equals("MPI_" + op.name())) {
                return op;
            }
        }
        return null;
    }

    private Combiner predefinedCombiner(TypeDescriptor descriptor) {
        return switch (name) {
            case "MPI_MINLOC", "MPI_MAXLOC" -> LocPairKernel.bind(name.equals("MPI_MAXLOC"), descriptor);
            case "MPI_REPLACE", "MPI_NO_OP" -> throw MpiErrors.error(ErrorClass.ERR_OP,
                    name + " is for one-sided accumulate operations, not for reductions");
            default -> PredefinedOp.valueOf(name.substring("MPI_".length())).bind(descriptor);
        };
    }

    private Combiner userCombiner(TypeDescriptor descriptor, Datatype type, boolean directBuffers) {
        if (bufferForm && (directBuffers || !arrayForm)) {
            return new BufferStagingCombiner(descriptor, (in, inout, count) -> {
                try {
                    function.call(in, inout, count, type);
                } catch (MPIException | RuntimeException e) {
                    throw userError(e);
                }
            });
        }
        return new ArrayStagingCombiner(descriptor, (in, inout, count) -> {
            try {
                function.call(in, inout, count, type);
            } catch (MPIException | RuntimeException e) {
                throw userError(e);
            }
        });
    }

    /**
     * The error of a failed user function, for the communicator's error handler (under {@code ERRORS_ARE_FATAL}
     * the job stops instead of leaving the other ranks waiting).
     */
    private static DeviceException userError(Exception e) {
        if (e instanceof DeviceException d) {
            return d;
        }
        int errorClass = e instanceof MPIException m ? m.getErrorClass() : ErrorClass.ERR_OTHER;
        return new DeviceException(errorClass, "the user reduction function failed: " + e, e);
    }

    /** True if {@code function}'s class overrides the {@code call} form whose operands are {@code operand}s. */
    private static boolean overrides(UserFunction function, Class<?> operand) {
        try {
            return function.getClass().getMethod("call", operand, operand, int.class, Datatype.class)
                    .getDeclaringClass() != UserFunction.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
