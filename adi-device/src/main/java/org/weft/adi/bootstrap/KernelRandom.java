package org.weft.adi.bootstrap;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.SecureRandom;

/**
 * Random bytes for secrets and nonces, read from the kernel's generator ({@code /dev/urandom}, what the JDK's
 * {@code NativePRNG} reads too). Why not {@code new SecureRandom()}: its set-up (the security providers) costs the
 * launcher's start 25-40 ms of CPU before it can start a single rank (issue 20, item 12). Where there is no
 * {@code /dev/urandom}, {@link SecureRandom}.
 */
public final class KernelRandom {
    private static final String DEVICE = "/dev/urandom";

    private KernelRandom() {
    }

    /** {@code count} random bytes. */
    public static byte[] bytes(int count) {
        try (InputStream in = new FileInputStream(DEVICE)) {
            byte[] bytes = in.readNBytes(count);
            if (bytes.length == count) {
                return bytes;
            }
        } catch (IOException e) {
            // no kernel generator here: the JDK's
        }
        byte[] bytes = new byte[count];
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }
}
