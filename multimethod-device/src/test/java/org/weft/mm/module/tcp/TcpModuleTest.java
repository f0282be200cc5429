package org.weft.mm.module.tcp;

import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.weft.mm.module.CommModuleConformanceTest;
import org.weft.mm.spi.CommModule;

/** The module test kit on {@link TcpModule}, plus what only tcp has: real sockets that strangers can reach. */
class TcpModuleTest extends CommModuleConformanceTest {
    private final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();

    @Override
    protected CommModule newModule(int rank) {
        return new TcpModule(log::add);
    }

    @Override
    protected Map<String, String> parameters() {
        return Map.of("tcp_handshake_timeout", "1000", "tcp_max_frame", "8m");
    }
}
