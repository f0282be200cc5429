package org.weft.mm.module.tcp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.weft.adi.net.HostAddresses;
import org.weft.mm.spi.Descriptor;

/**
 * Where a process listens for {@code tcp}: the bytes of its {@link Descriptor}. A process of a job that spans hosts
 * lists every address of its host; a dialer tries them in {@link HostAddresses#inDialOrder} (its own subnets
 * first).
 *
 * <pre>
 *  +-------------------------------+------------------------------------------------------+
 *  |        port (u16, LE)         |   hosts (UTF-8: names or literal addresses, comma-separated) ...
 *  +-------------------------------+------------------------------------------------------+
 * </pre>
 */
public record TcpAddress(List<String> hosts, int port) {
    public TcpAddress {
        if (port < 1 || port > 0xFFFF) {
            throw new IllegalArgumentException("port " + port);
        }
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty() || hosts.stream().anyMatch(h -> h.isEmpty() || h.indexOf(',') >= 0)) {
            throw new IllegalArgumentException("hosts " + hosts);
        }
    }

    public TcpAddress(String host, int port) {
        this(List.of(host), port);
    }

    /** The hosts in the order a dialer on this host tries them. */
    public List<String> dialOrder() {
        return HostAddresses.inDialOrder(hosts);
    }

    public Descriptor toDescriptor() {
        byte[] hostBytes = String.join(",", hosts).getBytes(StandardCharsets.UTF_8);
        ByteBuffer data = ByteBuffer.allocate(2 + hostBytes.length).order(ByteOrder.LITTLE_ENDIAN);
        data.putShort((short) port).put(hostBytes);
        return new Descriptor(TcpModule.NAME, data.array());
    }

    /** Reads a {@code tcp} descriptor; throws {@link IllegalArgumentException} when it is not one. */
    public static TcpAddress of(Descriptor descriptor) {
        if (!TcpModule.NAME.equals(descriptor.method())) {
            throw new IllegalArgumentException("not a tcp descriptor: " + descriptor);
        }
        byte[] data = descriptor.data();
        if (data.length < 3) {
            throw new IllegalArgumentException("tcp descriptor too short: " + data.length + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        int port = Short.toUnsignedInt(in.getShort());
        String hosts = new String(data, 2, data.length - 2, StandardCharsets.UTF_8);
        return new TcpAddress(List.of(hosts.split(",", -1)), port);
    }

    @Override
    public String toString() {
        return String.join(",", hosts.stream().map(h -> h.indexOf(':') >= 0 ? "[" + h + "]" : h).toList()) + ":"
                + port;
    }
}
