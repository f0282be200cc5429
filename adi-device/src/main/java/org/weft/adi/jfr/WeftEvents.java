package org.weft.adi.jfr;

/**
 * The calls that emit Weft's Flight Recorder events, each behind {@link Jfr#ON} at its call site. An event is made and
 * committed only while a recording has it enabled ({@code shouldCommit}). A duration event that a {@code ...Begins}
 * method began is ended by the {@code ends} of its own type.
 */
public final class WeftEvents {
    private WeftEvents() {
    }


    /** A message's first RSR went to {@code peer} by {@code method}. */
    public static void sent(int peer, int tag, int context, long bytes, String method, String protocol) {
        MessageSent event = new MessageSent();
        if (event.shouldCommit()) {
            commit(event, peer, tag, context, bytes, method, protocol);
        }
    }

    /** A message's first RSR arrived from {@code peer}; {@code expected}: a posted receive took it. */
    public static void received(int peer, int tag, int context, long bytes, String method, String protocol,
                                boolean expected) {
        MessageReceived event = new MessageReceived();
        if (event.shouldCommit()) {
            event.expected = expected;
            commit(event, peer, tag, context, bytes, method, protocol);
        }
    }

    private static void commit(MessageEvent event, int peer, int tag, int context, long bytes, String method,
                               String protocol) {
        event.peer = peer;
        event.tag = tag;
        event.context = context;
        event.bytes = bytes;
        event.method = method;
        event.protocol = protocol;
        event.commit();
    }

    /** One side of a rendezvous begins now; hand the result to {@link #ends}. */
    public static Rendezvous rendezvousBegins(String side, int peer, long bytes, String method) {
        Rendezvous event = new Rendezvous();
        event.side = side;
        event.peer = peer;
        event.bytes = bytes;
        event.method = method;
        event.begin();
        return event;
    }

    /** A blocking collective begins now; hand the result to {@link #ends}. */
    public static Collective collectiveBegins(String operation, String communicator, int commRank, int size) {
        Collective event = new Collective();
        event.operation = operation;
        event.communicator = communicator;
        event.commRank = commRank;
        event.size = size;
        event.begin();
        return event;
    }

    /** The side of a rendezvous that {@link #rendezvousBegins} began has ended ({@code null}: none began). */
    public static void ends(Rendezvous event) {
        commitBegun(event);
    }

    /** The collective that {@link #collectiveBegins} began has ended ({@code null}: none began). */
    public static void ends(Collective event) {
        commitBegun(event);
    }

    /** The wait that {@link #backPressureBegins} began has ended: the queue drained ({@code null}: none began). */
    public static void ends(BackPressureWait event) {
        commitBegun(event);
    }

    private static void commitBegun(WeftEvent event) {
        if (event != null && event.shouldCommit()) {
            event.commit();
        }
    }

    /** RSRs to {@code peer} start to wait for {@code method}; count them, then {@link #ends}. */
    public static BackPressureWait backPressureBegins(int peer, String method) {
        BackPressureWait event = new BackPressureWait();
        event.peer = peer;
        event.method = method;
        event.begin();
        return event;
    }
}
