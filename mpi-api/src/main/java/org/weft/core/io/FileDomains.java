package org.weft.core.io;

/**
 * The file domains of a two-phase access and the windows its aggregators cycle through. The span
 * {@code [start, end)} of all ranks' accesses is cut into one domain per aggregator, of equal size and aligned to
 * {@link #ALIGN} (or to the largest power of two below a small domain), so that no two aggregators write into one
 * file-system block; each aggregator takes its domain {@code cycleBytes} at a time (ROMIO's
 * {@code cb_buffer_size}): window {@code k} of aggregator {@code a} is the {@code k}-th such slice of its domain.
 * Every rank computes the same domains from the same numbers.
 *
 * @param start      the first file byte of the access
 * @param end        one past its last file byte
 * @param base       {@code start} rounded down to the alignment; domain {@code a} begins at
 *                   {@code base + a * size}, cut to {@code [start, end)}
 * @param size       bytes of a domain, a multiple of the alignment
 * @param cycleBytes bytes of a window (the collective buffer)
 * @param cycles     windows per domain: the exchanges of the access
 */
record FileDomains(long start, long end, long base, long size, long cycleBytes, int cycles) {
    /** The alignment of domains: a file-system block, large enough for striped file systems' units too. */
    static final long ALIGN = 1 << 20;

    /** The domains of {@code [start, end)} for {@code aggregators} aggregators, windows of at most {@code buffer}. */
    static FileDomains of(long start, long end, int aggregators, long buffer) {
        long raw = Math.ceilDiv(end - start, aggregators);
        long align = Math.min(ALIGN, Long.highestOneBit(Math.max(1, raw)));
        long base = start - Math.floorMod(start, align);
        long size = Math.ceilDiv(Math.ceilDiv(end - base, aggregators), align) * align;
        long cycleBytes = Math.max(1, Math.min(buffer, size));
        return new FileDomains(start, end, base, size, cycleBytes, Math.toIntExact(Math.ceilDiv(size, cycleBytes)));
    }

    /** The first file byte of window {@code cycle} of aggregator {@code aggregator}'s domain. */
    long windowStart(int aggregator, int cycle) {
        return clamp(base + aggregator * size + cycle * cycleBytes, aggregator);
    }

    /** One past the last file byte of that window; equal to {@link #windowStart} when it is empty. */
    long windowEnd(int aggregator, int cycle) {
        return clamp(base + aggregator * size + (cycle + 1) * cycleBytes, aggregator);
    }

    /** {@code offset} cut to the domain of {@code aggregator} within {@code [start, end)}. */
    private long clamp(long offset, int aggregator) {
        long domainEnd = Math.min(end, base + (aggregator + 1) * size);
        return Math.max(start, Math.min(offset, domainEnd));
    }
}
