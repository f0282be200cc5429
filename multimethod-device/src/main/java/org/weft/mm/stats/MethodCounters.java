package org.weft.mm.stats;

import org.weft.adi.DeviceReport;
import org.weft.adi.concurrent.CachedThreadLocal;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What one method did in this process: RSRs and bytes sent and delivered, polls and polls that found work.
 *
 * <p>Traffic is counted by the modules where they already serialise: a link counts
 * its sends under the lock that orders them, a poller its deliveries under its token, each in a {@link Traffic}
 * cell of its own (plain stores, no atomic instruction, no thread-local look-up), and a report sums the cells. A
 * shared atomic counter (a {@code LongAdder}'s base CAS) cost two locked instructions per RSR on each side of a
 * ping-pong, a visible part of a 0.2 µs shared-memory message; per-thread cells found through a thread-local
 * cost ~5–8 ns per send and receive (measured: {@code selfcost} over shm with them and without).
 */
public final class MethodCounters {
    /**
     * Counts written by one writer at a time (a link under its send lock, a poller under its token), so plain
     * stores; read by reports, which may lag a count or two.
     */
    public static final class Traffic {
        private long rsrsSent;
        private long bytesSent;
        private long rsrsDelivered;
        private long bytesDelivered;

        /** Counts one RSR of {@code bytes} (header and payload) that the method took. */
        public void sent(long bytes) {
            rsrsSent++;
            bytesSent += bytes;
        }

        /** Counts one RSR of {@code bytes} handed to the process's handlers. */
        public void delivered(long bytes) {
            rsrsDelivered++;
            bytesDelivered += bytes;
        }
    }

    private final String method;
    private final CopyOnWriteArrayList<Traffic> cells = new CopyOnWriteArrayList<>();
    /** Cells for the rare counts that come from any thread: bulk transfers done in place. */
    private final CachedThreadLocal<Traffic> threadCell = new CachedThreadLocal<>(this::newTraffic);
    /*
     * Polls are counted in plain fields: a poll is the hottest loop of a waiting rank, too hot even for a thread
     * local look-up, and it is nearly always one thread that polls. With several polling threads a few counts may
     * be lost; the report says "about".
     */
    private long polls;
    private long productivePolls;
    /** Set once a link to some peer uses this method: its polls are then never thinned out when idle. */
    private volatile boolean linked;

    public MethodCounters(String method) {
        this.method = method;
    }

    public String method() {
        return method;
    }

    /** A new cell for one serialised writer of this method's traffic (a link, a poller), summed by reports. */
    public Traffic newTraffic() {
        Traffic cell = new Traffic();
        cells.add(cell);
        return cell;
    }

    /** Counts data a bulk transfer of this method sent in place: bytes, but no RSR. */
    public void sentInPlace(long bytes) {
        threadCell.get().bytesSent += bytes;
    }

    /** Counts data a bulk transfer of this method received in place: bytes, but no RSR. */
    public void deliveredInPlace(long bytes) {
        threadCell.get().bytesDelivered += bytes;
    }

    /** Records that a link of this process uses the method. */
    public void markLinked() {
        linked = true;
    }

    /** Whether a link of this process uses the method. */
    public boolean isLinked() {
        return linked;
    }

    public void polled(int work) {
        polls++;
        if (work > 0) {
            productivePolls++;
        }
    }

    /**
     * A consistent-enough copy for a report: the sums of every cell as each is read (after the counting
     * threads stopped, as at the end of a job, the exact totals).
     */
    public DeviceReport.MethodReport snapshot() {
        long rsrsSent = 0;
        long bytesSent = 0;
        long rsrsDelivered = 0;
        long bytesDelivered = 0;
        for (Traffic c : cells) {
            rsrsSent += c.rsrsSent;
            bytesSent += c.bytesSent;
            rsrsDelivered += c.rsrsDelivered;
            bytesDelivered += c.bytesDelivered;
        }
        return new DeviceReport.MethodReport(method, rsrsSent, bytesSent, rsrsDelivered, bytesDelivered, polls,
                productivePolls);
    }
}
