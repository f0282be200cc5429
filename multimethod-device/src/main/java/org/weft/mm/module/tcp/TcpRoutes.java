package org.weft.mm.module.tcp;

import org.weft.mm.spi.Descriptor;

/**
 * Where a {@link TcpModule}'s links dial: the tcp method dials each peer's own listener; the relay method dials a
 * relay with a request in front of the HELLO, and has no listener of its own (its peers come to it through the
 * relay, {@link TcpModule#admit}).
 */
public interface TcpRoutes {
    /** The tcp method's own: a {@code tcp} descriptor's address, dialled directly; a listener on every address. */
    TcpRoutes DIRECT = (peerRank, remote) -> TcpModule.NAME.equals(remote.method())
            ? TcpRoute.direct(TcpAddress.of(remote)) : null;

    /** The route to {@code peerRank}, which offered {@code remote}; {@code null}: this method does not apply. */
    TcpRoute route(int peerRank, Descriptor remote);

    /**
     * Whether the module listens for peers that dial it (and advertises where in its descriptor); a module that does
     * not has no descriptor of its own and meets its peers only through {@link TcpModule#admit}.
     */
    default boolean listens() {
        return true;
    }
}
