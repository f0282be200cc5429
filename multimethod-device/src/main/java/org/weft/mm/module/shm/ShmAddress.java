package org.weft.mm.module.shm;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.weft.mm.spi.Descriptor;

/**
 * How to reach a process by {@code shm}: the bytes of its {@link Descriptor}, five strings each as a u16 byte count
 * (big-endian, {@link DataOutputStream#writeUTF}) and modified UTF-8: host name, boot id, job id, site, inbox path.
 */
record ShmAddress(HostIdentity host, String jobId, String site, Path inbox) {

    Descriptor toDescriptor() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(host.hostName());
            out.writeUTF(host.bootId());
            out.writeUTF(jobId);
            out.writeUTF(site);
            out.writeUTF(inbox.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Descriptor(ShmModule.NAME, bytes.toByteArray());
    }

    /** Reads an {@code shm} descriptor; throws {@link IllegalArgumentException} when it is not one. */
    static ShmAddress of(Descriptor descriptor) {
        if (!ShmModule.NAME.equals(descriptor.method())) {
            throw new IllegalArgumentException("not an shm descriptor: " + descriptor);
        }
        byte[] data = descriptor.data();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            ShmAddress address = new ShmAddress(new HostIdentity(in.readUTF(), in.readUTF()), in.readUTF(),
                    in.readUTF(), Path.of(in.readUTF()));
            if (in.available() != 0) {
                throw new IllegalArgumentException("shm descriptor has " + in.available() + " trailing bytes");
            }
            return address;
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("malformed shm descriptor (" + data.length + " bytes): " + e, e);
        }
    }
}
