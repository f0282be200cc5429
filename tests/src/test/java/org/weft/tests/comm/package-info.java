/** MPI chapter 7 (groups, contexts, communicators, attributes) over real transports. */
package org.weft.tests.comm;
