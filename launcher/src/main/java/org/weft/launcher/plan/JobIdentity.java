package org.weft.launcher.plan;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Who a job is: its id, its secret (32 random bytes, hex) and where its bootstrap service listens.
 */
public record JobIdentity(String jobId, String secret, String bootstrapAddress) {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A fresh secret: 32 bytes from {@link SecureRandom}, as 64 hex digits. */
    public static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** A job id unique enough on this host: the launcher's pid and a random suffix. */
    public static String newJobId() {
        return "weft-" + ProcessHandle.current().pid() + "-" + Integer.toHexString(RANDOM.nextInt(1 << 24));
    }
}
