package org.weft.mm;

import org.weft.mm.select.Link;
import org.weft.mm.select.SelectionPolicy;
import org.weft.mm.spi.SendStatus;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A reference to an endpoint of another (or this) context, carrying that context's descriptor table. The method
 * is chosen on first use by the selection policy and cached; every startpoint to the same peer by the same method
 * shares the module's communication object.
 */
public final class Startpoint {
    private final int rank;
    private final int endpointId;
    private final DescriptorTable table;
    private final SelectionPolicy policy;
    private volatile Link link;

    Startpoint(int rank, int endpointId, DescriptorTable table, SelectionPolicy policy) {
        this.rank = rank;
        this.endpointId = endpointId;
        this.table = table;
        this.policy = policy;
    }

    public int rank() {
        return rank;
    }

    public DescriptorTable table() {
        return table;
    }

    /** The method that reaches this endpoint, selected on first call. */
    public Link link() {
        Link l = link;
        if (l == null) {
            synchronized (this) {
                l = link;
                if (l == null) {
                    l = policy.select(rank, table);
                    link = l;
                }
            }
        }
        return l;
    }

    /** The method selected so far, or {@code null} when this startpoint has not been used. */
    public Link selectedLink() {
        return link;
    }

    /** Sends one RSR to handler {@code handlerId} of the endpoint. */
    public SendStatus send(int handlerId, ByteBuffer header, MemorySegment payload) {
        return link().object().send(endpointId, handlerId, header, payload);
    }
}
