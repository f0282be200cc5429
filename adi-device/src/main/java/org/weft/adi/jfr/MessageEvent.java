package org.weft.adi.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;

/** A point-to-point message seen by one of its ends: the other end, its envelope, size, method and protocol. */
@Category({"Weft", "Point-to-point"})
public abstract class MessageEvent extends WeftEvent {
    @Label("Peer")
    @Description("The other end's rank in MPI_COMM_WORLD")
    public int peer;

    @Label("Tag")
    public int tag;

    @Label("Context")
    @Description("The communicator's context id")
    public int context;

    @Label("Size")
    @DataAmount
    public long bytes;

    @Label("Method")
    @Description("The method that carries it: self, shm, nativempi, tcp, ...")
    public String method;

    @Label("Protocol")
    @Description("eager, synchronous (eager with an acknowledgement) or rendezvous")
    public String protocol;
}
