package org.weft.adi.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A blocking collective call, from its start to its end on this rank. */
@Name("weft.Collective")
@Label("Collective")
@Category({"Weft", "Collectives"})
@Description("A collective call on this rank, from start to end")
public final class Collective extends WeftEvent {
    @Label("Operation")
    @Description("The MPI call: MPI_Bcast, MPI_Allreduce, ...")
    public String operation;

    @Label("Communicator")
    @Description("The communicator's name")
    public String communicator;

    @Label("Rank in Communicator")
    @Description("This process's rank in the communicator")
    public int commRank;

    @Label("Size")
    @Description("The communicator's size")
    public int size;
}
