/**
 * Weft's own additions for programs, beside the Open MPI API of package {@code mpi}: enquiry and feedback such as
 * which communication method each peer uses.
 */
package org.weft.api;
