package org.weft.launcher.bootstrap;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.weft.adi.bootstrap.RefusedRequestException;

/**
 * The latest business card of every job rank, for processes of other worlds that come to need it (a spawn's
 * parents and children, two sides of a port): a rank's card is its last contribution to its world's exchange, or
 * what it put later (a module it started late). A rank that will never have one (its process died before its
 * exchange) is marked failed, and those who wait for it learn so.
 */
final class CardRegistry {
    private final Map<Integer, byte[]> cards = new HashMap<>();
    private final Map<Integer, String> failed = new HashMap<>();

    synchronized void put(int rank, byte[] card) {
        cards.put(rank, card);
        notifyAll();
    }

    /** Ranks {@code first .. first + count - 1} will never publish a card, because of {@code reason}. */
    synchronized void fail(int first, int count, String reason) {
        for (int rank = first; rank < first + count; rank++) {
            if (!cards.containsKey(rank)) {
                failed.put(rank, reason);
            }
        }
        notifyAll();
    }

    /**
     * The cards of {@code ranks}, waiting up to {@code limit} for those not published yet.
     *
     * @throws RefusedRequestException {@code errorClass} when one failed or did not come in time
     */
    synchronized byte[][] await(int[] ranks, Duration limit, int errorClass) throws RefusedRequestException,
            InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        byte[][] found = new byte[ranks.length][];
        for (int i = 0; i < ranks.length; i++) {
            while ((found[i] = cards.get(ranks[i])) == null) {
                String reason = failed.get(ranks[i]);
                if (reason != null) {
                    throw new RefusedRequestException(errorClass, "job rank " + ranks[i] + ": " + reason);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new RefusedRequestException(errorClass, "job rank " + ranks[i]
                            + " published no business card within " + limit.toSeconds() + " s");
                }
                wait(Math.max(1, left / 1_000_000));
            }
        }
        return found;
    }
}
