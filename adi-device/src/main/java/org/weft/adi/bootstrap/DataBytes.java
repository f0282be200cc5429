package org.weft.adi.bootstrap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Small messages written with {@link DataOutputStream} into memory and read back (big-endian integers, strings as
 * {@link DataOutputStream#writeUTF}): the bodies of launcher requests, what two ports' roots swap.
 */
public final class DataBytes {
    private DataBytes() {
    }

    /** What to write. */
    @FunctionalInterface
    public interface Writing {
        void to(DataOutputStream out) throws IOException;
    }

    /** The bytes {@code writing} writes. */
    public static byte[] write(Writing writing) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writing.to(out);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory", e);
        }
        return bytes.toByteArray();
    }

    /** A reader of {@code bytes}. */
    public static DataInputStream reader(byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }
}
