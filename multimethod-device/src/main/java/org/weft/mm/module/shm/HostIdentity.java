package org.weft.mm.module.shm;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What makes two processes share memory: the same host name and, where Linux tells it, the same boot id (two
 * containers or a rebooted host may share a name; they never share a boot id and a tmpfs).
 */
public record HostIdentity(String hostName, String bootId) {
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
    /** Linux's host name, as {@code gethostname(2)} returns it. */
    private static final Path HOST_NAME = Path.of("/proc/sys/kernel/hostname");

    /**
     * This machine's name, as {@code gethostname(2)} gives it and {@code InetAddress.getLocalHost().getHostName()}
     * returns it: read from the kernel where Linux tells it, since {@code getLocalHost} first sets up Java's name
     * service and resolves the name (30–40 ms of a rank's start-up); else through it, {@code localhost} if unknown.
     */
    public static String localName() {
        try {
            String name = Files.readString(HOST_NAME).trim();
            if (!name.isEmpty()) {
                return name;
            }
        } catch (IOException | SecurityException e) {
            // not Linux: ask Java
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /** This host as {@code hostName} names it; the boot id is empty where it cannot be read. */
    public static HostIdentity of(String hostName) {
        String bootId;
        try {
            bootId = Files.readString(BOOT_ID).trim();
        } catch (IOException | SecurityException e) {
            bootId = "";
        }
        return new HostIdentity(hostName, bootId);
    }

    /** Same host name and, when both ends know their boot id, the same boot id. */
    public boolean sameHostAs(HostIdentity other) {
        return hostName.equals(other.hostName)
                && (bootId.isEmpty() || other.bootId.isEmpty() || bootId.equals(other.bootId));
    }

    /** {@code name#bootId}, the host part of a rank's {@link org.weft.adi.Locality}. */
    @Override
    public String toString() {
        return hostName + "#" + bootId;
    }
}
