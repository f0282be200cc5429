/**
 * The {@code relay} method (MPWide's forwarders, PACX-MPI's daemons, Nexus' forwarders): ranks whose sites cannot
 * reach each other directly meet through relay processes on gateway hosts. A link is a tcp link (framing, HELLO,
 * ordering, back-pressure: {@link org.weft.mm.module.tcp.TcpModule}) whose connection goes to a relay with a
 * {@link org.weft.mm.module.relay.RelayRequest} in front; the target rank, registered with its own relay, dials out
 * to it when asked (a reverse connection), so ranks behind a relay never need to accept connections from outside.
 */
package org.weft.mm.module.relay;
