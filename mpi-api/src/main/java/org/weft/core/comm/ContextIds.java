package org.weft.core.comm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * This process's pool of free context ids, kept as a bit mask (MPICH's way): bit {@code k} set means the pair
 * ({@code 2k} point-to-point, {@code 2k+1} collective) is free here. {@code MPI_COMM_WORLD} has 0/1,
 * {@code MPI_COMM_SELF} 2/3. A new communicator's ids are agreed without a central service: every process offers
 * its mask, the masks are combined with bitwise AND over the parent communicator, and all take the lowest bits
 * that are free everywhere (see {@link ContextAgreement}).
 *
 * <p>Several threads may create communicators at once ({@code MPI_THREAD_MULTIPLE}). Only one agreement at a
 * time may offer the mask; the others offer an empty mask and so fail and retry. Which one may offer is decided
 * by priority (the parent's context id, lowest first), so that all processes converge on the same agreement,
 * as MPICH does. Each offer carries an extra word, all ones when the mask was offered: after the AND it tells
 * every process alike whether the result is final or the round must be repeated.
 */
public final class ContextIds {
    public static final int WORLD = 0;
    public static final int SELF = 2;
    /** Words of the mask: 64 × 32 = 2048 pairs of ids per process. */
    static final int WORDS = 64;

    private final int[] free = new int[WORDS];
    private final List<Object> waiting = new ArrayList<>();
    private final List<Integer> priorities = new ArrayList<>();
    private Object offering;

    public ContextIds() {
        Arrays.fill(free, -1);
        free[0] &= ~0b11; // world and self
    }

    /** Number of ints in an offer: the mask and the "offered" word. */
    static int offerLength() {
        return WORDS + 1;
    }

    /** Registers an agreement that wants ids; {@code priority} is the parent's context id. */
    synchronized void enter(Object agreement, int priority) {
        waiting.add(agreement);
        priorities.add(priority);
    }

    /** Forgets an agreement that got its ids or failed. */
    synchronized void leave(Object agreement) {
        int i = waiting.indexOf(agreement);
        if (i >= 0) {
            waiting.remove(i);
            priorities.remove(i);
        }
        if (offering == agreement) {
            offering = null;
        }
    }

    /**
     * This process's offer for one round of {@code agreement}: its free mask if no other agreement has an offer
     * out and this one has the best priority among those waiting, else an empty mask.
     */
    synchronized int[] offer(Object agreement) {
        int[] offer = new int[offerLength()];
        if (offering == null && isFirst(agreement)) {
            offering = agreement;
            System.arraycopy(free, 0, offer, 0, WORDS);
            offer[WORDS] = -1;
        }
        return offer;
    }

    private boolean isFirst(Object agreement) {
        int mine = priorities.get(waiting.indexOf(agreement));
        return priorities.stream().allMatch(p -> p >= mine);
    }

    /**
     * Ends a round: with {@code agreed} the AND of every process's offer, returns the {@code count} lowest common
     * pairs (their even ids), taking them from this process's pool when {@code member}; or {@code null} when some
     * process did not offer its mask and the round must be repeated. {@code ERR_OTHER} when every process offered
     * and too few ids are free everywhere.
     */
    synchronized int[] take(Object agreement, int[] agreed, int count, boolean member) {
        if (offering == agreement) {
            offering = null;
        }
        if (agreed[WORDS] != -1) {
            return null;
        }
        int[] contexts = new int[count];
        int found = 0;
        for (int bit = 0; bit < WORDS * 32 && found < count; bit++) {
            if ((agreed[bit >>> 5] & (1 << (bit & 31))) != 0) {
                contexts[found++] = 2 * bit;
            }
        }
        if (found < count) {
            throw MpiErrors.error(ErrorClass.ERR_OTHER, "no free context id left on every process ("
                    + WORDS * 32 + " communicators at most)");
        }
        if (member) {
            for (int context : contexts) {
                int bit = context >>> 1;
                free[bit >>> 5] &= ~(1 << (bit & 31));
            }
        }
        return contexts;
    }

    /** Returns the pair whose even id is {@code context} to the pool (its communicator was freed). */
    public synchronized void release(int context) {
        int bit = context >>> 1;
        if (context < 4 || bit >= WORDS * 32) {
            return; // the predefined communicators keep theirs
        }
        free[bit >>> 5] |= 1 << (bit & 31);
    }

    /** True when the pair of {@code context} is free on this process (for tests). */
    public synchronized boolean isFree(int context) {
        int bit = context >>> 1;
        return (free[bit >>> 5] & (1 << (bit & 31))) != 0;
    }
}
