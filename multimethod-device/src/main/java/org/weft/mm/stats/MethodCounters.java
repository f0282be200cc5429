package org.weft.mm.stats;

import org.weft.adi.DeviceReport;
import org.weft.adi.concurrent.CachedThreadLocal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What one method did in this process: RSRs and bytes sent and delivered, polls and polls that found work.
 *
 * <p>Traffic is counted per thread: each thread that sends or delivers gets a cell of its own, which only it
 * writes (opaque stores: plain moves, no atomic instruction), and a report sums the cells. A shared atomic counter
 * (a {@code LongAdder}'s base CAS) cost two locked instructions per RSR on each side of a ping-pong, a visible part
 * of a 0.2 µs shared-memory message.
 */
public final class MethodCounters {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int RSRS_SENT = 0;
    private static final int BYTES_SENT = 1;
    private static final int RSRS_DELIVERED = 2;
    private static final int BYTES_DELIVERED = 3;
    private static final int CELL_LENGTH = 4;

    private final String method;
    private final CopyOnWriteArrayList<long[]> cells = new CopyOnWriteArrayList<>();
    private final CachedThreadLocal<long[]> cell = new CachedThreadLocal<>(() -> {
        long[] c = new long[CELL_LENGTH];
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

    public MethodCounters(String method) {
        this.method = method;
    }

    public String method() {
        return method;
    }

    public void sent(long bytes) {
        add(cell.get(), RSRS_SENT, BYTES_SENT, bytes);
    }

    public void delivered(long bytes) {
        add(cell.get(), RSRS_DELIVERED, BYTES_DELIVERED, bytes);
    }

    /** One more RSR of {@code bytes} in this thread's cell; only this thread writes it. */
    private static void add(long[] c, int rsrs, int byteCount, long bytes) {
        SLOT.setOpaque(c, rsrs, (long) SLOT.getOpaque(c, rsrs) + 1);
        SLOT.setOpaque(c, byteCount, (long) SLOT.getOpaque(c, byteCount) + bytes);
    }

    public void polled(int work) {
        polls++;
        if (work > 0) {
            productivePolls++;
        }
    }

    /** A consistent-enough copy for a report: the sums of every thread's cell as each is read. */
    public DeviceReport.MethodReport snapshot() {
        long[] sum = new long[CELL_LENGTH];
        for (long[] c : cells) {
            for (int i = 0; i < CELL_LENGTH; i++) {
                sum[i] += (long) SLOT.getOpaque(c, i);
            }
        }
        return new DeviceReport.MethodReport(method, sum[RSRS_SENT], sum[BYTES_SENT], sum[RSRS_DELIVERED],
                sum[BYTES_DELIVERED], polls, productivePolls);
    }
}
