package org.weft.mm.stats;

import org.weft.adi.DeviceReport;
import org.weft.adi.concurrent.CachedThreadLocal;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What one method did in this process: RSRs and bytes sent and delivered, polls and polls that found work.
 *
 * <p>Traffic is counted per thread: each thread that sends or delivers gets a cell of its own, which only it
 * writes (plain stores, no atomic instruction), and a report sums the cells. A shared atomic counter
 * (a {@code LongAdder}'s base CAS) cost two locked instructions per RSR on each side of a ping-pong, a visible part
 * of a 0.2 µs shared-memory message.
 */
public final class MethodCounters {
    /** One thread's counts: written by that thread alone, read by reports (which may lag a count or two). */
    private static final class Cell {
        long rsrsSent;
        long bytesSent;
        long rsrsDelivered;
        long bytesDelivered;
    }

    private final String method;
    private final CopyOnWriteArrayList<Cell> cells = new CopyOnWriteArrayList<>();
    private final CachedThreadLocal<Cell> cell = new CachedThreadLocal<>(() -> {
        Cell c = new Cell();
        cells.add(c);
        return c;
    });
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

    public void sent(long bytes) {
        Cell c = cell.get();
        c.rsrsSent++;
        c.bytesSent += bytes;
    }

    public void delivered(long bytes) {
        Cell c = cell.get();
        c.rsrsDelivered++;
        c.bytesDelivered += bytes;
    }

    /** Counts data a bulk transfer of this method sent in place: bytes, but no RSR. */
    public void sentInPlace(long bytes) {
        cell.get().bytesSent += bytes;
    }

    /** Counts data a bulk transfer of this method received in place: bytes, but no RSR. */
    public void deliveredInPlace(long bytes) {
        cell.get().bytesDelivered += bytes;
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
     * A consistent-enough copy for a report: the sums of every thread's cell as each is read (after the counting
     * threads stopped, as at the end of a job, the exact totals).
     */
    public DeviceReport.MethodReport snapshot() {
        long rsrsSent = 0;
        long bytesSent = 0;
        long rsrsDelivered = 0;
        long bytesDelivered = 0;
        for (Cell c : cells) {
            rsrsSent += c.rsrsSent;
            bytesSent += c.bytesSent;
            rsrsDelivered += c.rsrsDelivered;
            bytesDelivered += c.bytesDelivered;
        }
        return new DeviceReport.MethodReport(method, rsrsSent, bytesSent, rsrsDelivered, bytesDelivered, polls,
                productivePolls);
    }
}
