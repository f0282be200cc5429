package org.weft.wan;

/** Where a delay line delivers its packets: a site's TUN device (or, in tests, a list). */
interface PacketSink {
    /** Takes the packet of {@code length} bytes at the native {@code address}; false when it was refused. */
    boolean write(long address, int length);
}
