/**
 * The {@code tcp} method: Netty admits connections (accept, the HELLO that proves the job's secret, strangers);
 * the callers' threads write sends and poll arrivals on the non-blocking sockets, so a message costs no thread
 * wake-up.
 */
package org.weft.mm.module.tcp;
