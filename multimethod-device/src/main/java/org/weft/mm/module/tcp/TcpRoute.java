package org.weft.mm.module.tcp;

import java.util.function.Supplier;

/**
 * How a tcp link reaches one peer: the address it dials, the bytes it writes before its HELLO (none for a direct
 * connection; a relay's request when the connection goes through relays) and how messages name the way.
 *
 * @param address where to dial (each of its hosts in dial order, until one answers)
 * @param preambles makes the bytes written first on each connection, before the HELLO (not a tcp frame): fresh ones
 *                  for every connection, since each of a peer's connections (its stripes too) proves itself anew
 * @param via how messages name the route, e.g. {@code through relay b (10.81.2.254:4100)}; empty when direct
 */
public record TcpRoute(TcpAddress address, Supplier<byte[]> preambles, String via) {
    private static final byte[] NONE = new byte[0];

    /** Straight to the peer's own listener. */
    public static TcpRoute direct(TcpAddress address) {
        return new TcpRoute(address, () -> NONE, "");
    }

    /** The bytes for one new connection. */
    public byte[] preamble() {
        return preambles.get().clone();
    }
}
