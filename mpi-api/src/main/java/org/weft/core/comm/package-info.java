/** Communicators, process groups and context ids: the mapping from communicator ranks to world ranks. */
package org.weft.core.comm;
