package org.weft.mm.module.tcp;

/**
 * How a tcp link reaches one peer: the address it dials, the bytes it writes before its HELLO (empty for a direct
 * connection; a relay's request when the connection goes through relays) and how messages name the way.
 *
 * @param address where to dial (each of its hosts in dial order, until one answers)
 * @param preamble written first on the connection, before the HELLO; not a tcp frame
 * @param via how messages name the route, e.g. {@code through relay b (10.81.2.254:4100)}; empty when direct
 */
public record TcpRoute(TcpAddress address, byte[] preamble, String via) {
    private static final byte[] NONE = new byte[0];

    public TcpRoute {
        preamble = preamble.clone();
    }

    /** Straight to the peer's own listener. */
    public static TcpRoute direct(TcpAddress address) {
        return new TcpRoute(address, NONE, "");
    }

    @Override
    public byte[] preamble() {
        return preamble.clone();
    }
}
