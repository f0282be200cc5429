package org.weft.mm.match;

import org.weft.adi.Ranks;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Posted receives and unexpected messages of one process. Matching takes the first entry in order whose envelope
 * fits, so messages from one sender in one context are matched in the order they were sent.
 *
 * <p>Not thread-safe by itself: callers hold this engine's monitor ({@code synchronized (engine)}) around a
 * look-up and the insertion that follows a miss, so that an arrival and a post never pass each other.
 */
public final class MatchingEngine {
    private final ArrayDeque<RecvRequest> posted = new ArrayDeque<>();
    private final ArrayDeque<UnexpectedMessage> unexpected = new ArrayDeque<>();

    static boolean matches(int wantSource, int wantTag, int wantContext, int source, int tag, int context) {
        return context == wantContext
                && (wantSource == Ranks.ANY_SOURCE || wantSource == source)
                && (wantTag == Ranks.ANY_TAG || wantTag == tag);
    }

    /** Removes and returns the first posted receive that accepts this envelope, or {@code null}. */
    public RecvRequest takePosted(int source, int tag, int context) {
        if (posted.isEmpty()) {
            return null; // no iterator: the common case of a message that arrives before its receive
        }
        for (Iterator<RecvRequest> it = posted.iterator(); it.hasNext(); ) {
            RecvRequest r = it.next();
            if (matches(r.source, r.tag, r.context, source, tag, context)) {
                it.remove();
                return r;
            }
        }
        return null;
    }

    /** The first unexpected message the pattern accepts, left in place, or {@code null}. */
    public UnexpectedMessage findUnexpected(int source, int tag, int context) {
        if (unexpected.isEmpty()) {
            return null;
        }
        for (UnexpectedMessage m : unexpected) {
            if (matches(source, tag, context, m.source, m.tag, m.context)) {
                return m;
            }
        }
        return null;
    }

    /** Removes and returns the first unexpected message the pattern accepts, or {@code null}. */
    public UnexpectedMessage takeUnexpected(int source, int tag, int context) {
        if (unexpected.isEmpty()) {
            return null; // no iterator: the common case of a receive posted before its message
        }
        for (Iterator<UnexpectedMessage> it = unexpected.iterator(); it.hasNext(); ) {
            UnexpectedMessage m = it.next();
            if (matches(source, tag, context, m.source, m.tag, m.context)) {
                it.remove();
                return m;
            }
        }
        return null;
    }

    public void addPosted(RecvRequest request) {
        posted.addLast(request);
    }

    public void addUnexpected(UnexpectedMessage message) {
        unexpected.addLast(message);
    }

    /** Removes a posted receive that has not matched; false when it already matched. */
    public boolean removePosted(RecvRequest request) {
        return posted.removeFirstOccurrence(request);
    }

    public int postedCount() {
        return posted.size();
    }

    public int unexpectedCount() {
        return unexpected.size();
    }
}
