/** MPI programs the multi-process tests launch through {@code weftrun}; each prints what the test checks. */
package org.weft.tests.programs;
