/**
 * Small concurrency helpers for the message path of devices and of the MPI layer above them, where a thread-local
 * map look-up or a locked instruction is a visible part of a message's cost.
 */
package org.weft.adi.concurrent;
