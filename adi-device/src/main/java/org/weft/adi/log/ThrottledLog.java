package org.weft.adi.log;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * Lines that anyone who can reach a port can make us print (a refused connection each): the first {@code burst} of
 * an interval are printed as they come; the rest are counted, and one summary line per interval gives their number
 * and the last of them. An interval without lines restores the burst. A flood of 1 550 connections made 1 528
 * lines on the launcher's stderr before; it makes {@code burst} + one per interval now.
 *
 * <p>Thread-safe. The summary of an interval is printed when it ends, from a virtual thread, or by {@link #flush}.
 */
public final class ThrottledLog {
    /**
     * The summary line of {@code count} lines not printed in the last {@code interval}, the last of them being about
     * {@code last}.
     */
    @FunctionalInterface
    public interface Summary {
        String of(long count, String interval, String last);
    }

    private final Consumer<String> sink;
    private final int burst;
    private final long intervalNanos;
    private final String intervalText;
    private final Summary summary;
    private long windowStart;
    private int printed;
    private long suppressed;
    private String lastSuppressed;
    private boolean summaryPending;

    /**
     * @param sink     where lines go
     * @param burst    lines printed in full per interval
     * @param interval how often at most a summary is printed
     * @param summary  makes the summary line
     */
    public ThrottledLog(Consumer<String> sink, int burst, Duration interval, Summary summary) {
        this.sink = sink;
        this.burst = burst;
        this.intervalNanos = interval.toNanos();
        this.intervalText = interval.toMillis() % 1000 == 0 ? interval.toSeconds() + " s" : interval.toMillis() + " ms";
        this.summary = summary;
        this.windowStart = System.nanoTime() - intervalNanos;
    }

    /** Prints {@code line}, or counts it, keeping {@code gist} (e.g. the peer and the reason) for the summary. */
    public synchronized void log(String line, String gist) {
        long now = System.nanoTime();
        if (!summaryPending && now - windowStart >= intervalNanos) {
            windowStart = now;
            printed = 0;
        }
        if (printed < burst) {
            printed++;
            sink.accept(line);
            return;
        }
        suppressed++;
        lastSuppressed = gist;
        if (!summaryPending) {
            summaryPending = true;
            long wait = windowStart + intervalNanos - now;
            Thread.ofVirtual().name("weft-throttled-log").start(() -> summarizeAfter(wait));
        }
    }

    /** Prints the summary of what was counted and not yet summarized, now (before the process ends). */
    public synchronized void flush() {
        if (suppressed > 0) {
            sink.accept(summary.of(suppressed, intervalText, lastSuppressed));
            suppressed = 0;
            lastSuppressed = null;
        }
    }

    private void summarizeAfter(long nanos) {
        try {
            Thread.sleep(Duration.ofNanos(Math.max(0, nanos)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            flush();
            summaryPending = false;
            windowStart = System.nanoTime(); // a flood goes on being summarized; a quiet interval restores the burst
            printed = burst;
        }
    }
}
