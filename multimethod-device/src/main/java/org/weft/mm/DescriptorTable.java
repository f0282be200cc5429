package org.weft.mm;

import org.weft.mm.spi.Descriptor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The methods by which one context can be reached, fastest first: one {@link Descriptor} per method. A value:
 * it travels between processes as a business card through the bootstrap service.
 *
 * <pre>
 * card := count:u16 { nameLength:u16 name:utf8 dataLength:i32 data }*    (little-endian)
 * </pre>
 */
public record DescriptorTable(List<Descriptor> descriptors) {
    public DescriptorTable {
        descriptors = List.copyOf(descriptors);
    }

    /** The descriptor for {@code method}, or {@code null} when the context does not offer it. */
    public Descriptor find(String method) {
        for (Descriptor d : descriptors) {
            if (d.method().equals(method)) {
                return d;
            }
        }
        return null;
    }

    /** This table with only the descriptors of {@code methods}. */
    public DescriptorTable only(java.util.Set<String> methods) {
        return new DescriptorTable(descriptors.stream().filter(d -> methods.contains(d.method())).toList());
    }

    public byte[] encode() {
        int size = 2;
        for (Descriptor d : descriptors) {
            size += 2 + d.method().getBytes(StandardCharsets.UTF_8).length + 4 + d.data().length;
        }
        ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        out.putShort((short) descriptors.size());
        for (Descriptor d : descriptors) {
            byte[] name = d.method().getBytes(StandardCharsets.UTF_8);
            byte[] data = d.data();
            out.putShort((short) name.length).put(name).putInt(data.length).put(data);
        }
        return out.array();
    }

    public static DescriptorTable decode(byte[] card) {
        ByteBuffer in = ByteBuffer.wrap(card).order(ByteOrder.LITTLE_ENDIAN);
        int count = Short.toUnsignedInt(in.getShort());
        List<Descriptor> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] name = new byte[Short.toUnsignedInt(in.getShort())];
            in.get(name);
            byte[] data = new byte[in.getInt()];
            in.get(data);
            list.add(new Descriptor(new String(name, StandardCharsets.UTF_8), data));
        }
        return new DescriptorTable(list);
    }
}
