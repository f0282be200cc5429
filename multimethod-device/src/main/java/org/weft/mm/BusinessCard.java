package org.weft.mm;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.weft.adi.Locality;

/**
 * What a context tells every other one through the bootstrap service: where it runs and its descriptor table.
 *
 * <pre>
 * card := siteLength:u16 site:utf8 hostLength:u16 host:utf8 table    (little-endian; table as DescriptorTable)
 * </pre>
 */
public record BusinessCard(Locality locality, DescriptorTable table) {
    public byte[] encode() {
        byte[] site = locality.site().getBytes(StandardCharsets.UTF_8);
        byte[] host = locality.host().getBytes(StandardCharsets.UTF_8);
        byte[] descriptors = table.encode();
        return ByteBuffer.allocate(4 + site.length + host.length + descriptors.length).order(ByteOrder.LITTLE_ENDIAN)
                .putShort((short) site.length).put(site).putShort((short) host.length).put(host).put(descriptors)
                .array();
    }

    public static BusinessCard decode(byte[] card) {
        ByteBuffer in = ByteBuffer.wrap(card).order(ByteOrder.LITTLE_ENDIAN);
        String site = utf8(in);
        String host = utf8(in);
        DescriptorTable table = DescriptorTable.decode(Arrays.copyOfRange(card, in.position(), card.length));
        return new BusinessCard(new Locality(site, host), table);
    }

    private static String utf8(ByteBuffer in) {
        byte[] bytes = new byte[Short.toUnsignedInt(in.getShort())];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
