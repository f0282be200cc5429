package org.weft.mm.spi;

import java.util.Arrays;

/**
 * One entry of a descriptor table: the name of a method and the method-specific bytes that tell how to reach a
 * process by it (tcp: host and port; shm: host id and segment name). Only the named module reads {@code data}.
 */
public record Descriptor(String method, byte[] data) {
    public Descriptor {
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Descriptor d && d.method.equals(method) && Arrays.equals(d.data, data);
    }

    @Override
    public int hashCode() {
        return method.hashCode() * 31 + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return method + "[" + data.length + " bytes]";
    }
}
