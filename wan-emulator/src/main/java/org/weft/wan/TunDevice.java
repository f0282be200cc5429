package org.weft.wan;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * A TUN device of this network namespace, attached through {@code /dev/net/tun} ({@code TUNSETIFF}, IP packets
 * without the packet-information prefix) and non-blocking: each read returns one IP packet the kernel routed out of
 * the device, each write hands one IP packet to the kernel as if it had come in on it. {@code bin/weft-wan} makes
 * the devices persistent ({@code ip tuntap add}) and sets their addresses and routes; this only attaches.
 */
final class TunDevice implements PacketSink, AutoCloseable {
    /** {@code _IOW('T', 202, int)}. */
    private static final long TUNSETIFF = 0x400454caL;
    private static final short IFF_TUN = 0x0001;
    private static final short IFF_NO_PI = 0x1000;
    /** {@code struct ifreq}: the name (16 bytes), then a union whose first member is the flags. */
    private static final long IFREQ_SIZE = 40;
    private static final long IFREQ_FLAGS = 16;
    private static final int IFNAMSIZ = 16;

    private final String name;
    private final int fd;

    private TunDevice(String name, int fd) {
        this.name = name;
        this.fd = fd;
    }

    /** Attaches to the TUN device {@code name} (made if it does not exist, and then gone when this closes). */
    static TunDevice attach(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length == 0 || bytes.length >= IFNAMSIZ) {
            throw new IllegalArgumentException("a device name has 1 to 15 characters: '" + name + "'");
        }
        int fd = Libc.open("/dev/net/tun", Libc.O_RDWR | Libc.O_NONBLOCK);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ifreq = arena.allocate(IFREQ_SIZE);
            MemorySegment.copy(bytes, 0, ifreq, ValueLayout.JAVA_BYTE, 0, bytes.length);
            ifreq.set(ValueLayout.JAVA_SHORT, IFREQ_FLAGS, (short) (IFF_TUN | IFF_NO_PI));
            Libc.ioctl(fd, TUNSETIFF, ifreq, "TUNSETIFF " + name);
        } catch (RuntimeException e) {
            Libc.close(fd);
            throw e;
        }
        return new TunDevice(name, fd);
    }

    String name() {
        return name;
    }

    int fd() {
        return fd;
    }

    /**
     * One packet into the native memory at {@code address} (room for {@code capacity} bytes): its length, 0 when none
     * is waiting, minus errno on failure.
     */
    long read(long address, long capacity) {
        long n = Libc.read(fd, address, capacity);
        return n == -Libc.EAGAIN ? 0 : n;
    }

    /** Writes the packet at {@code address}; false when the kernel did not take it (the caller counts a drop). */
    @Override
    public boolean write(long address, int length) {
        return Libc.write(fd, address, length) == length;
    }

    @Override
    public void close() {
        Libc.close(fd);
    }
}
