package org.weft.mm.module.tcp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.weft.mm.spi.Descriptor;

/**
 * Where a process listens for {@code tcp}: the bytes of its {@link Descriptor}.
 *
 * <pre>
 *  +-------------------------------+---------------------------------------+
 *  |        port (u16, LE)         |   host (UTF-8: name or literal address) ...
 *  +-------------------------------+---------------------------------------+
 * </pre>
 */
public record TcpAddress(String host, int port) {
    public TcpAddress {
        if (port < 1 || port > 0xFFFF) {
            throw new IllegalArgumentException("port " + port);
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("empty host");
        }
    }

    public Descriptor toDescriptor() {
        byte[] hostBytes = host.getBytes(StandardCharsets.UTF_8);
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
        return new TcpAddress(new String(data, 2, data.length - 2, StandardCharsets.UTF_8), port);
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
