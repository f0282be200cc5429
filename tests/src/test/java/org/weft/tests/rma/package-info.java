/** One-sided communication (MPI chapter 11): windows, puts, gets, accumulates, fence and passive target. */
package org.weft.tests.rma;
