package org.weft.launcher.plan;

import java.util.HexFormat;
import org.weft.adi.bootstrap.KernelRandom;

/**
 * Who a job is: its id, its secret (32 random bytes, hex) and where its bootstrap service listens.
 */
public record JobIdentity(String jobId, String secret, String bootstrapAddress) {
    /** A fresh secret: 32 bytes from the kernel's generator ({@link KernelRandom}), as 64 hex digits. */
    public static String newSecret() {
        return HexFormat.of().formatHex(KernelRandom.bytes(32));
    }

    /** A job id unique enough on this host: the launcher's pid and a random suffix. */
    public static String newJobId() {
        byte[] suffix = KernelRandom.bytes(3);
        int value = (suffix[0] & 0xff) << 16 | (suffix[1] & 0xff) << 8 | suffix[2] & 0xff;
        return "weft-" + ProcessHandle.current().pid() + "-" + Integer.toHexString(value);
    }
}
