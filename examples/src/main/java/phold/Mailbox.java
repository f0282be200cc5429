package phold;

import java.nio.LongBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * The event messages of one rank: nonblocking sends (a pool of buffers, each free again once its send completed) and
 * one receive posted at all times for any source. Nothing here waits: a Time Warp rank keeps computing while its
 * messages travel, which is what lets the tcp method aggregate them (a blocking call would write them at once).
 * Counts the messages sent to and received from each rank (positive and anti-messages alike), for GVT.
 *
 * <pre>
 * a message: three longs   ts | dst &lt;&lt; 32 | src | seq &lt;&lt; 1 | anti
 * </pre>
 */
final class Mailbox {
    static final int TAG = 7;
    private static final int POOL = 4096;

    private final LongBuffer[] buffers = new LongBuffer[POOL];
    private final Request[] sends = new Request[POOL];
    private int nextSend;
    private final LongBuffer inbox = MPI.newLongBuffer(3);
    private Request receive;
    final long[] sentTo;
    final long[] receivedFrom;
    /** What the last message {@link #poll} returned was: an anti-message, and from which rank. */
    boolean lastAnti;
    int lastSource;

    Mailbox(int size) throws MPIException {
        for (int i = 0; i < POOL; i++) {
            buffers[i] = MPI.newLongBuffer(3);
        }
        sentTo = new long[size];
        receivedFrom = new long[size];
        receive = MPI.COMM_WORLD.iRecv(inbox, 3, MPI.LONG, MPI.ANY_SOURCE, TAG);
    }

    /** Sends {@code e} (an anti-message when {@code anti}) to {@code rank}, without waiting. */
    void send(int rank, Event e, boolean anti) throws MPIException {
        int slot = nextSend;
        nextSend = (slot + 1) % POOL;
        Request previous = sends[slot];
        if (previous != null) {
            previous.waitFor(); // long done, but for a send the network pushed back on
        }
        LongBuffer b = buffers[slot];
        b.put(0, e.ts()).put(1, (long) e.dst() << 32 | (e.src() & 0xFFFFFFFFL))
                .put(2, (long) e.seq() << 1 | (anti ? 1 : 0));
        sends[slot] = MPI.COMM_WORLD.iSend(b, 3, MPI.LONG, rank, TAG);
        sentTo[rank]++;
    }

    /** A message that arrived, or null: {@link #lastAnti} and {@link #lastSource} describe it. */
    Event poll() throws MPIException {
        Status status = receive.testStatus();
        if (status == null) {
            return null;
        }
        lastSource = status.getSource();
        receivedFrom[lastSource]++;
        long word = inbox.get(1);
        long last = inbox.get(2);
        Event e = new Event(inbox.get(0), (int) (word >>> 32), (int) word, (int) (last >>> 1));
        lastAnti = (last & 1) != 0;
        receive = MPI.COMM_WORLD.iRecv(inbox, 3, MPI.LONG, MPI.ANY_SOURCE, TAG);
        return e;
    }

    /** At the end: the posted receive goes (cancelled), and every send completes. */
    void close() throws MPIException {
        receive.cancel();
        receive.waitFor();
        for (Request r : sends) {
            if (r != null) {
                r.waitFor();
            }
        }
    }
}
