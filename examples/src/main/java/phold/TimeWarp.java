package phold;

import java.util.ArrayDeque;
import java.util.TreeSet;
import mpi.MPI;
import mpi.MPIException;

/**
 * The Time Warp engine of one rank, for the LPs it owns (a contiguous block): processes its pending events in order,
 * optimistically; a message earlier than what it has processed (a straggler), or the anti-message of an event it
 * has processed, rolls it back — undone events restore their LP's saved state, their children are withdrawn (removed
 * here, or cancelled by an anti-message) and the events go back to pending. Global virtual time comes from two
 * collectives ({@link #computeGvt}); events older than it are committed and their saved states dropped.
 */
final class TimeWarp {
    /** One processed event with what undoing it needs. */
    private record Processed(Event event, long value, long rng, int seq, Event child) {
    }

    private final Model model;
    private final int rank;
    private final int perRank;
    private final int firstLp;
    private final Model.Lp[] lps;
    private final TreeSet<Event> pending = new TreeSet<>();
    private final ArrayDeque<Processed> processed = new ArrayDeque<>();
    private final Mailbox mailbox;
    private final long gvtEvery;
    private final long window;
    long gvt;
    long committed;
    long rolledBack;
    long rollbacks;
    long antiMessages;
    long gvtRounds;

    TimeWarp(Model model, int rank, int size, long gvtEvery, long window) throws MPIException {
        this.model = model;
        this.rank = rank;
        this.perRank = model.lps() / size;
        this.firstLp = rank * perRank;
        this.gvtEvery = gvtEvery;
        this.window = window;
        this.lps = new Model.Lp[perRank];
        for (int i = 0; i < perRank; i++) {
            lps[i] = model.initial(firstLp + i);
            pending.addAll(java.util.List.of(model.initialEvents(firstLp + i, lps[i])));
        }
        this.mailbox = new Mailbox(size);
    }

    /** Runs until GVT passes the end time; then every event processed is committed. */
    void run() throws MPIException {
        long sinceGvt = 0;
        while (true) {
            drainInbox();
            Event next = pending.isEmpty() ? null : pending.first();
            boolean blocked = next == null || next.ts() >= model.endTime() || next.ts() > gvt + window;
            if (blocked || sinceGvt >= gvtEvery) {
                computeGvt();
                sinceGvt = 0;
                if (gvt >= model.endTime()) {
                    break;
                }
                continue;
            }
            pending.pollFirst();
            execute(next);
            sinceGvt++;
        }
        committed += processed.size();
        processed.clear();
        finalDrain();
    }

    private void execute(Event e) throws MPIException {
        Model.Lp lp = lps[e.dst() - firstLp];
        long value = lp.value;
        long rng = lp.rng;
        int seq = lp.seq;
        Event child = model.process(e, lp);
        processed.addLast(new Processed(e, value, rng, seq, child));
        deliverOrSend(child);
    }

    private void deliverOrSend(Event child) throws MPIException {
        int owner = child.dst() / perRank;
        if (owner == rank) {
            pending.add(child); // later than its parent: never a straggler here
        } else {
            mailbox.send(owner, child, false);
        }
    }

    private void drainInbox() throws MPIException {
        Event e;
        while ((e = mailbox.poll()) != null) {
            if (mailbox.lastAnti) {
                annihilate(e);
            } else {
                if (!processed.isEmpty() && e.compareTo(processed.peekLast().event()) < 0) {
                    rollBackTo(e); // a straggler
                }
                pending.add(e);
            }
        }
    }

    /** The anti-message of {@code e}: its positive is pending (drop it) or processed (roll back, then drop it). */
    private void annihilate(Event e) throws MPIException {
        if (!pending.remove(e)) {
            rollBackTo(e);
            if (!pending.remove(e)) {
                throw new IllegalStateException("rank " + rank + ": anti-message for " + e + " matches nothing");
            }
        }
    }

    /** Undoes every processed event not earlier than {@code e}, latest first. */
    private void rollBackTo(Event e) throws MPIException {
        rollbacks++;
        while (!processed.isEmpty() && processed.peekLast().event().compareTo(e) >= 0) {
            Processed p = processed.pollLast();
            Model.Lp lp = lps[p.event().dst() - firstLp];
            lp.value = p.value();
            lp.rng = p.rng();
            lp.seq = p.seq();
            int owner = p.child().dst() / perRank;
            if (owner == rank) {
                pending.remove(p.child()); // undone already if it had been processed: it is later
            } else {
                mailbox.send(owner, p.child(), true);
                antiMessages++;
            }
            pending.add(p.event());
            rolledBack++;
        }
    }

    /**
     * GVT: the ranks swap how many messages each sent to each (all-to-all), receive all those counted (handling
     * them: rollbacks included), and take the minimum of their earliest pending events (allreduce). Anti-messages a
     * rollback sends meanwhile are later than the straggler that caused it, which is pending somewhere: the minimum
     * stays below them. Events before GVT are committed.
     */
    private void computeGvt() throws MPIException {
        long[] expected = new long[mailbox.sentTo.length];
        MPI.COMM_WORLD.allToAll(mailbox.sentTo.clone(), 1, MPI.LONG, expected, 1, MPI.LONG);
        receiveAll(expected);
        long[] min = {pending.isEmpty() ? Long.MAX_VALUE : pending.first().ts()};
        MPI.COMM_WORLD.allReduce(min, 1, MPI.LONG, MPI.MIN);
        gvt = min[0];
        gvtRounds++;
        while (!processed.isEmpty() && processed.peekFirst().event().ts() < gvt) {
            processed.pollFirst();
            committed++;
        }
    }

    private void receiveAll(long[] expected) throws MPIException {
        for (int r = 0; r < expected.length; r++) {
            while (mailbox.receivedFrom[r] < expected[r]) {
                drainInbox();
            }
        }
    }

    /** After the end: messages still travelling (anti-messages of the last rollbacks) are received and dropped. */
    private void finalDrain() throws MPIException {
        long[] expected = new long[mailbox.sentTo.length];
        MPI.COMM_WORLD.allToAll(mailbox.sentTo.clone(), 1, MPI.LONG, expected, 1, MPI.LONG);
        for (int r = 0; r < expected.length; r++) {
            while (mailbox.receivedFrom[r] < expected[r]) {
                mailbox.poll();
            }
        }
        mailbox.close();
    }

    /** This rank's share of the checksum of the final states. */
    long checksum() {
        long sum = 0;
        for (int i = 0; i < perRank; i++) {
            sum += Model.checksumOf(firstLp + i, lps[i]);
        }
        return sum;
    }
}
