package org.weft.mm.match;

import org.weft.adi.Ranks;

import java.util.ArrayList;

/**
 * Posted receives and unexpected messages of one process. Matching takes the first entry in order whose envelope
 * fits, so messages from one sender in one context are matched in the order they were sent.
 *
 * <p>Not thread-safe by itself: callers hold a lock of theirs around a
 * look-up and the insertion that follows a miss, so that an arrival and a post never pass each other.
 */
public final class MatchingEngine {
    // Array lists walked by index: no iterator per look-up (the JIT does not always scalar-replace one, and then
    // every match made garbage), and removal keeps the order.
    private final ArrayList<RecvRequest> posted = new ArrayList<>();
    private final ArrayList<UnexpectedMessage> unexpected = new ArrayList<>();

    static boolean matches(int wantSource, int wantTag, int wantContext, int source, int tag, int context) {
        return context == wantContext
                && (wantSource == Ranks.ANY_SOURCE || wantSource == source)
                && (wantTag == Ranks.ANY_TAG || wantTag == tag);
    }

    /** Removes and returns the first posted receive that accepts this envelope, or {@code null}. */
    public RecvRequest takePosted(int source, int tag, int context) {
        for (int i = 0, n = posted.size(); i < n; i++) {
            RecvRequest r = posted.get(i);
            if (matches(r.source, r.tag, r.context, source, tag, context)) {
                posted.remove(i);
                return r;
            }
        }
        return null;
    }

    /** The first unexpected message the pattern accepts, left in place, or {@code null}. */
    public UnexpectedMessage findUnexpected(int source, int tag, int context) {
        for (int i = 0, n = unexpected.size(); i < n; i++) {
            UnexpectedMessage m = unexpected.get(i);
            if (matches(source, tag, context, m.source, m.tag, m.context)) {
                return m;
            }
        }
        return null;
    }

    /** Removes and returns the first unexpected message the pattern accepts, or {@code null}. */
    public UnexpectedMessage takeUnexpected(int source, int tag, int context) {
        for (int i = 0, n = unexpected.size(); i < n; i++) {
            UnexpectedMessage m = unexpected.get(i);
            if (matches(source, tag, context, m.source, m.tag, m.context)) {
                unexpected.remove(i);
                return m;
            }
        }
        return null;
    }

    public void addPosted(RecvRequest request) {
        posted.add(request);
    }

    public void addUnexpected(UnexpectedMessage message) {
        unexpected.add(message);
    }

    /** Removes a posted receive that has not matched; false when it already matched. */
    public boolean removePosted(RecvRequest request) {
        for (int i = 0, n = posted.size(); i < n; i++) {
            if (posted.get(i) == request) {
                posted.remove(i);
                return true;
            }
        }
        return false;
    }

    /**
     * Removes every posted receive that {@code peer} could be the sender for (from it, or from any source) into
     * {@code into}, in order: that peer was lost and nothing more will come from it.
     */
    public void removePostedFrom(int peer, java.util.List<RecvRequest> into) {
        for (int i = 0; i < posted.size(); ) {
            RecvRequest r = posted.get(i);
            if (r.source == peer || r.source == Ranks.ANY_SOURCE) {
                into.add(posted.remove(i));
            } else {
                i++;
            }
        }
    }

    public int postedCount() {
        return posted.size();
    }

    public int unexpectedCount() {
        return unexpected.size();
    }
}
