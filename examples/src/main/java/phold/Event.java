package phold;

/**
 * One PHOLD event: at virtual time {@code ts}, for logical process {@code dst}, scheduled by {@code src} as its
 * {@code seq}-th event. Events are ordered by (ts, src, seq), a total order the sequential and the parallel run share
 * ({@code src} and {@code seq} make it unique), so that equal timestamps are processed in the same order by both.
 */
record Event(long ts, int dst, int src, int seq) implements Comparable<Event> {
    @Override
    public int compareTo(Event o) {
        int c = Long.compare(ts, o.ts);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(src, o.src);
        return c != 0 ? c : Integer.compare(seq, o.seq);
    }
}
