/** One-sided communication (MPI windows): origin-side epochs and operations, and each window's target service. */
package org.weft.core.rma;
