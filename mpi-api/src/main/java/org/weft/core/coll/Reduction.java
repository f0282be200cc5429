package org.weft.core.coll;

import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.op.PredefinedOp;

/**
 * A reduction operation ready for one collective call: its combiner bound to the call's datatype, whether it is
 * commutative (which decides the algorithm: any order for commutative operations, rank order otherwise), and which
 * predefined operation it is ({@code null}: a user's, or MINLOC/MAXLOC), for collectives a native MPI runs.
 */
public record Reduction(Combiner combiner, boolean commutative, PredefinedOp predefined) {
    /** A reduction that is no {@link PredefinedOp}. */
    public Reduction(Combiner combiner, boolean commutative) {
        this(combiner, commutative, null);
    }
}
