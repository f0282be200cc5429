/**
 * MPI point-to-point as one RSR handler, <em>enqueue message</em>: the envelope codec, the eager protocol (envelope
 * and data together), the rendezvous protocol (RTS, CTS, DATA) above each method's eager limit, and the
 * synchronous-send acknowledgement.
 */
package org.weft.mm.proto;
