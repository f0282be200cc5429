/**
 * The {@code tcp} method: Netty admits connections (accept, the HELLO that proves the job's secret, strangers);
 * the callers' threads write sends and poll arrivals on the non-blocking sockets, so a message costs no thread
 * wake-up. A connection's bytes go through a {@code Wire}: the socket itself, or TLS 1.3 where the connection
 * leaves its site ({@code tcp_tls}).
 */
package org.weft.mm.module.tcp;
