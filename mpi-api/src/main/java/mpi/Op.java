package mpi;

import org.weft.adi.ErrorClass;

/** A reduction operation ({@code MPI_Op}). Reductions are not implemented in Weft yet. */
public final class Op implements Freeable {
    private final String name;
    private final UserFunction function;
    private final boolean commutative;
    private final boolean predefined;
    private boolean freed;

    /** {@code MPI_Op_create} from a user function. */
    public Op(UserFunction function, boolean commute) {
        this(null, function, commute, false);
    }

    private Op(String name, UserFunction function, boolean commute, boolean predefined) {
        this.name = name;
        this.function = function;
        this.commutative = commute;
        this.predefined = predefined;
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
            throw Errors.plain("MPI_Op_free", ErrorClass.ERR_OP, "cannot free the predefined operation " + name);
        }
        freed = true;
    }

    public boolean isNull() {
        return freed;
    }

    UserFunction function() {
        return function;
    }
}
