package org.weft.adi.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.StackTrace;

/** What every Weft event carries: the rank that recorded it, so that a job's recordings tell their ranks apart. */
@Category("Weft")
@StackTrace(false)
public abstract class WeftEvent extends Event {
    @Label("Rank")
    @Description("This process's rank in MPI_COMM_WORLD (WEFT_RANK)")
    public int rank = Jfr.RANK;
}
