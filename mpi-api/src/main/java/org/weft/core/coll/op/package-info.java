/** Reduction operations: the predefined MPI operations as typed kernels over memory segments, and user ops. */
package org.weft.core.coll.op;
