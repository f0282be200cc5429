package org.weft.adi.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A method pushed back: from the first RSR to a peer that had to wait in the peer's queue until progress emptied the
 * queue into the method again.
 */
@Name("weft.BackPressureWait")
@Label("Back-Pressure Wait")
@Category({"Weft", "Point-to-point"})
@Description("RSRs to a peer queued because its method's buffers were full, until the queue drained")
public final class BackPressureWait extends WeftEvent {
    @Label("Peer")
    @Description("The peer's rank in MPI_COMM_WORLD")
    public int peer;

    @Label("Method")
    public String method;

    @Label("RSRs Queued")
    @Description("How many RSRs waited in the queue during this wait")
    public int queued;
}
