package org.weft.mm.stats;

import org.weft.adi.DeviceReport;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one method did in this process: RSRs and bytes sent and delivered, polls and polls that found work.
 * Traffic is counted in {@link LongAdder}s, because senders and module threads update them concurrently and a
 * report reads them rarely.
 */
public final class MethodCounters {
    private final String method;
    private final LongAdder rsrsSent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder rsrsDelivered = new LongAdder();
    private final LongAdder bytesDelivered = new LongAdder();
    /*
     * Polls are counted in plain fields: a poll is the hottest loop of a waiting rank, too hot for an atomic
     * update, and it is nearly always one thread that polls. With several polling threads a few counts may be
     * lost; the report says "about".
     */
    private long polls;
    private long productivePolls;

    public MethodCounters(String method) {
        this.method = method;
    }

    public String method() {
        return method;
    }

    public void sent(long bytes) {
        rsrsSent.increment();
        bytesSent.add(bytes);
    }

    public void delivered(long bytes) {
        rsrsDelivered.increment();
        bytesDelivered.add(bytes);
    }

    public void polled(int work) {
        polls++;
        if (work > 0) {
            productivePolls++;
        }
    }

    /** A consistent-enough copy for a report. */
    public DeviceReport.MethodReport snapshot() {
        return new DeviceReport.MethodReport(method, rsrsSent.sum(), bytesSent.sum(), rsrsDelivered.sum(),
                bytesDelivered.sum(), polls, productivePolls);
    }
}
