package org.weft.core.coll;

import org.weft.core.coll.op.Combiner;

/**
 * A reduction operation ready for one collective call: its combiner bound to the call's datatype, and whether
 * it is commutative (which decides the algorithm: any order for commutative operations, rank order otherwise).
 */
public record Reduction(Combiner combiner, boolean commutative) {
}
