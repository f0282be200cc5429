package org.weft.adi.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * One side of a rendezvous, as a duration: the sender's from its RTS to the receiver's CTS (waiting for the
 * receive to be posted), the receiver's from its CTS to the last byte of data.
 */
@Name("weft.Rendezvous")
@Label("Rendezvous")
@Category({"Weft", "Point-to-point"})
@Description("A large message's rendezvous: the sender waiting for the receiver's CTS, or the receiver for the data")
public final class Rendezvous extends WeftEvent {
    @Label("Side")
    @Description("sender (RTS to CTS) or receiver (CTS to the last data)")
    public String side;

    @Label("Peer")
    @Description("The other side's rank in MPI_COMM_WORLD")
    public int peer;

    @Label("Size")
    @DataAmount
    public long bytes;

    @Label("Method")
    public String method;
}
