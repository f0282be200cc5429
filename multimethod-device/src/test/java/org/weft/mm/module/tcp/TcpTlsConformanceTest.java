package org.weft.mm.module.tcp;

import java.util.Map;
import org.weft.mm.module.CommModuleConformanceTest;
import org.weft.mm.spi.CommModule;

/**
 * The module test kit on {@link TcpModule} with every connection TLS ({@code tcp_tls=all}): order, sizes, several
 * senders, sends from within deliveries and both ranks dialling at once hold over {@link TlsWire} as over the
 * socket.
 */
class TcpTlsConformanceTest extends CommModuleConformanceTest {
    @Override
    protected CommModule newModule(int rank) {
        return new TcpModule(line -> { });
    }

    @Override
    protected Map<String, String> parameters() {
        return Map.of("tcp_tls", "all", "tcp_max_frame", "8m");
    }
}
