package org.weft.mm.tls;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Just enough DER (ITU-T X.690) to write a certificate: the JDK reads X.509 but has no public API to make one, and
 * a library for a few dozen bytes was not worth its start-up.
 */
final class Der {
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private Der() {
    }

    static byte[] sequence(byte[]... parts) {
        return tlv(0x30, concat(parts));
    }

    static byte[] set(byte[]... parts) {
        return tlv(0x31, concat(parts));
    }

    static byte[] integer(BigInteger value) {
        return tlv(0x02, value.toByteArray());
    }

    static byte[] octetString(byte[] bytes) {
        return tlv(0x04, bytes);
    }

    /** A BIT STRING of whole bytes (no unused bits). */
    static byte[] bitString(byte[] bytes) {
        byte[] content = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, content, 1, bytes.length);
        return tlv(0x03, content);
    }

    static byte[] utf8(String text) {
        return tlv(0x0C, text.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] utcTime(Instant when) {
        return tlv(0x17, UTC_TIME.format(when).getBytes(StandardCharsets.US_ASCII));
    }

    /** {@code [tag] EXPLICIT content}, constructed, context-specific. */
    static byte[] explicit(int tag, byte[] content) {
        return tlv(0xA0 | tag, content);
    }

    /** An OBJECT IDENTIFIER from its dotted form; arcs may be large (as in 2.25.UUID). */
    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        base128(out, new BigInteger(arcs[0]).multiply(BigInteger.valueOf(40)).add(new BigInteger(arcs[1])));
        for (int i = 2; i < arcs.length; i++) {
            base128(out, new BigInteger(arcs[i]));
        }
        return tlv(0x06, out.toByteArray());
    }

    private static void base128(ByteArrayOutputStream out, BigInteger arc) {
        int groups = Math.max(1, (arc.bitLength() + 6) / 7);
        for (int g = groups - 1; g >= 0; g--) {
            int bits = arc.shiftRight(7 * g).intValue() & 0x7F;
            out.write(g == 0 ? bits : bits | 0x80);
        }
    }

    static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int octets = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | octets);
            for (int i = octets - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
