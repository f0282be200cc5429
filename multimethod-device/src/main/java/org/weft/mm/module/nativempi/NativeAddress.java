package org.weft.mm.module.nativempi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.weft.mm.spi.Descriptor;

/**
 * How to reach a process by {@code nativempi}: the bytes of its {@link Descriptor}, the native session id as a u16
 * byte count (big-endian, {@link DataOutputStream#writeUTF}) and modified UTF-8, then the native rank (i32,
 * big-endian) in the module's communicator.
 */
record NativeAddress(String sessionId, int nativeRank) {

    Descriptor toDescriptor() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(sessionId);
            out.writeInt(nativeRank);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Descriptor(NativeMpiModule.NAME, bytes.toByteArray());
    }

    /** Reads a {@code nativempi} descriptor; throws {@link IllegalArgumentException} when it is not one. */
    static NativeAddress of(Descriptor descriptor) {
        if (!NativeMpiModule.NAME.equals(descriptor.method())) {
            throw new IllegalArgumentException("not a nativempi descriptor: " + descriptor);
        }
        byte[] data = descriptor.data();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            NativeAddress address = new NativeAddress(in.readUTF(), in.readInt());
            if (in.available() != 0 || address.nativeRank < 0) {
                throw new IllegalArgumentException("trailing bytes or a negative rank");
            }
            return address;
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("malformed nativempi descriptor (" + data.length + " bytes): " + e, e);
        }
    }
}
