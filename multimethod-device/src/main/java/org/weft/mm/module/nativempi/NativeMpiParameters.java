package org.weft.mm.module.nativempi;

import java.util.List;
import org.weft.adi.param.Parameter;

/** The declared parameters of the {@code nativempi} module (listed by {@code weftrun --info}). */
public final class NativeMpiParameters {
    /** Empty: the usual sonames of the launcher's MPI, as the dynamic loader finds them. */
    public static final Parameter<String> LIBRARY = Parameter.string("nativempi_library", "",
            "libmpi to load (a path or soname); empty tries the sonames of the MPI whose launcher started the"
                    + " process: Open MPI's libmpi.so.40, MPICH's libmpich.so.12 or libmpi.so.12, then libmpi.so");

    public static final Parameter<Long> EAGER_LIMIT = Parameter.bytes("nativempi_eager_limit", 64 * 1024,
            "largest payload sent eagerly with its envelope over native MPI; larger ones use rendezvous");

    public static final Parameter<Long> MAX_RSR = Parameter.bytes("nativempi_max_rsr", 256 * 1024,
            "largest RSR one MPI message carries (rendezvous data is split into fragments no larger); every"
                    + " pre-posted receive has a slot this large");

    public static final Parameter<Integer> POSTED_RECEIVES = Parameter.integer("nativempi_posted_receives", 16,
            "receives", "receives kept posted for arriving RSRs, each with a slot of nativempi_max_rsr bytes");

    public static final Parameter<Integer> SEND_SLOTS = Parameter.integer("nativempi_send_slots", 64, "sends",
            "MPI_Isend requests in flight per process before sends are back-pressured");

    public static final Parameter<Integer> MAX_PER_POLL = Parameter.integer("nativempi_max_per_poll", 64, "RSRs",
            "most RSRs one nativempi poll receives and delivers");

    /**
     * Open MPI's shared-memory eager limit (btl_vader_eager_limit) is 4 KiB including its own headers: below it
     * MPI_Send returns at once. Above it MPI_Send would wait for the receiver to match, and two ranks sending to each
     * other at once would wait for ever, so the default keeps well below.
     */
    public static final Parameter<Long> BLOCKING_SEND_LIMIT = Parameter.bytes("nativempi_blocking_send_limit", 4000,
            "largest RSR (with its prefix) sent with MPI_Send instead of MPI_Isend; keep it within libmpi's eager"
                    + " limit, or a send may wait for the receiver; 0 sends everything with MPI_Isend");

    public static final Parameter<Long> BULK_MIN = Parameter.bytes("nativempi_bulk_min", 64 * 1024,
            "smallest rendezvous message whose data goes in place, by one MPI message from the sender's direct"
                    + " buffer into the receiver's, instead of in RSR fragments copied in and out (heap arrays from"
                    + " 1 MiB, through a native copy); 0: never");

    public static final Parameter<Integer> COLLECTIVES = Parameter.integer("nativempi_collectives", 1, "flag",
            "1 = the blocking collectives of a communicator wholly inside this native job (barrier, bcast, reduce,"
                    + " allreduce, allgather, alltoall, gather, scatter, reduce_scatter_block) run as the native MPI's"
                    + " own nonblocking ones on a native communicator of its members, waited for with Weft's progress"
                    + " running; 0 = Weft's point-to-point rounds");

    /** All of the above, in the order {@code weftrun --info} shows them. */
    public static final List<Parameter<?>> ALL = List.of(LIBRARY, EAGER_LIMIT, MAX_RSR, SEND_SLOTS, MAX_PER_POLL,
            BLOCKING_SEND_LIMIT, POSTED_RECEIVES, BULK_MIN, COLLECTIVES);

    private NativeMpiParameters() {
    }
}
