/** Collective operations (MPI chapter 6) at several process counts, roots and message sizes. */
package org.weft.tests.coll;
