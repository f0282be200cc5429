package org.weft.wan;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The emulator's one thread: reads the packets each site's TUN device gives (a bounded batch per device per pass),
 * hands each to the delay line from its site to the site that owns its destination, writes the packets that are
 * due, and sleeps in {@code ppoll} until a device has a packet or the next one is due. One thread owns every delay
 * line, so nothing is locked; its cost and ceiling are measured in docs/performance.md.
 */
final class Forwarder {
    /** Packets read from one device per pass, so that a flood in one direction does not starve the others. */
    private static final int READ_BATCH = 256;
    /** The largest IP packet a TUN device gives. */
    private static final int MAX_PACKET = 65536;
    private static final long MAX_SLEEP_NANOS = 100_000_000L;
    private static final ValueLayout.OfInt INT_BE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final SitePort[] ports;
    /** {@code lines[from][to]}: null on the diagonal. */
    private final DelayLine[][] lines;
    private final MemorySegment staging = Arena.global().allocate(MAX_PACKET, 8);
    private final MemorySegment pollFds;
    private final MemorySegment timespec = Arena.global().allocate(16, 8);
    private final long batchNanos;
    private long notIpv4;

    /**
     * {@code batchNanos} above 0: after a pass that moved packets, wait that long before the next, so that one wake-up
     * serves the packets that came and fell due meanwhile (less CPU at high packet rates; each packet up to
     * {@code 2 × batchNanos} later than the link's own timing).
     */
    Forwarder(SitePort[] ports, DelayLine[][] lines, long batchNanos) {
        this.ports = ports;
        this.lines = lines;
        this.batchNanos = batchNanos;
        this.pollFds = Arena.global().allocate(Libc.POLLFD_SIZE * ports.length, 8);
        for (int i = 0; i < ports.length; i++) {
            pollFds.set(ValueLayout.JAVA_INT, i * Libc.POLLFD_SIZE, ports[i].tun().fd());
            pollFds.set(ValueLayout.JAVA_SHORT, i * Libc.POLLFD_SIZE + 4, Libc.POLLIN);
        }
    }

    /**
     * Forwards until the thread is interrupted; statistics go to {@code statistics} every {@code statsNanos} while
     * packets flow. With {@code realTimePriority} above 0 the thread runs in the real-time class: on a busy machine
     * an ordinary thread wakes milliseconds late, and the link's delay with it (docs/performance.md).
     */
    void run(PrintStream log, StatisticsFile statistics, long statsNanos, int realTimePriority) {
        Libc.setTimerSlack(1_000);
        if (realTimePriority > 0) {
            int errno = Libc.runInRealTime(realTimePriority);
            log.println(errno == 0 ? "forwarding in real time (SCHED_FIFO " + realTimePriority + ")"
                    : "forwarding at normal priority: SCHED_FIFO refused, errno " + errno);
        }
        long nextStats = System.nanoTime() + statsNanos;
        long lastReceived = -1;
        while (!Thread.currentThread().isInterrupted()) {
            long passStart = System.nanoTime();
            int moved = deliverDue(passStart);
            for (int i = 0; i < ports.length; i++) {
                moved += readFrom(i);
            }
            long now = System.nanoTime();
            if (now >= nextStats) {
                lastReceived = writeIfChanged(statistics, lastReceived);
                nextStats = now + statsNanos;
            }
            if (moved == 0) {
                sleepUntil(Math.min(nextDue(), nextStats), ports.length);
            } else if (batchNanos > 0) {
                sleepUntil(passStart + batchNanos, 0);
            }
        }
    }

    private int deliverDue(long now) {
        int delivered = 0;
        for (int from = 0; from < ports.length; from++) {
            for (int to = 0; to < ports.length; to++) {
                if (lines[from][to] != null) {
                    delivered += lines[from][to].deliverDue(now, ports[to].tun());
                }
            }
        }
        return delivered;
    }

    private int readFrom(int from) {
        int read = 0;
        while (read < READ_BATCH) {
            long length = ports[from].tun().read(staging.address(), MAX_PACKET);
            if (length == -Libc.EINTR) {
                continue;
            }
            if (length <= 0) {
                return read; // nothing waiting (or an error the next poll reports again)
            }
            read++;
            int to = destination((int) length);
            if (to < 0 || to == from) {
                ports[from].unroutable++;
            } else {
                lines[from][to].offer(staging, (int) length, System.nanoTime());
            }
        }
        return read;
    }

    /** The port owning the destination of the packet in {@code staging}, or -1 (not IPv4, or nobody's). */
    private int destination(int length) {
        if (length < 20 || (staging.get(ValueLayout.JAVA_BYTE, 0) & 0xf0) != 0x40) {
            notIpv4++;
            return -1;
        }
        int address = staging.get(INT_BE, 16);
        for (int i = 0; i < ports.length; i++) {
            if (ports[i].owns(address)) {
                return i;
            }
        }
        return -1;
    }

    private long nextDue() {
        long next = Long.MAX_VALUE;
        for (DelayLine[] row : lines) {
            for (DelayLine line : row) {
                if (line != null) {
                    next = Math.min(next, line.nextDue());
                }
            }
        }
        return next;
    }

    /** Sleeps until {@code deadline}, or until one of the first {@code devices} TUN devices has a packet. */
    private void sleepUntil(long deadline, int devices) {
        long wait = Math.min(deadline - System.nanoTime(), MAX_SLEEP_NANOS);
        if (wait <= 0) {
            return;
        }
        timespec.set(ValueLayout.JAVA_LONG, 0, wait / 1_000_000_000L);
        timespec.set(ValueLayout.JAVA_LONG, 8, wait % 1_000_000_000L);
        Libc.ppoll(pollFds, devices, timespec);
    }

    private long writeIfChanged(StatisticsFile statistics, long lastReceived) {
        long received = 0;
        for (DelayLine[] row : lines) {
            for (DelayLine line : row) {
                received += line == null ? 0 : line.counters().received;
            }
        }
        if (received != lastReceived) {
            statistics.write(this::printStatistics);
        }
        return received;
    }

    /** One line per direction, and the packets no direction took. */
    void printStatistics(PrintStream log) {
        for (DelayLine[] row : lines) {
            for (DelayLine line : row) {
                if (line != null) {
                    log.println(line);
                }
            }
        }
        for (SitePort port : ports) {
            if (port.unroutable > 0) {
                log.println(port + ": " + port.unroutable + " packets to no other site");
            }
        }
        if (notIpv4 > 0) {
            log.println(notIpv4 + " packets were not IPv4");
        }
        log.flush();
    }
}
