/**
 * The relay process ({@link org.weft.mm.relay.RelayMain}), which {@code weftrun --relay SITE=HOST} starts on a gateway
 * host: it admits connections that prove the job's secret and joins each rank's connection to its target's, through
 * bounded buffers, forwarding the ranks' bytes unread. The rank's side is {@link org.weft.mm.module.relay}.
 */
package org.weft.mm.relay;
