package org.weft.mm;

import org.weft.adi.idle.IdleStrategies;
import org.weft.adi.param.Parameter;
import org.weft.adi.jfr.Jfr;
import org.weft.adi.trace.StartupTrace;
import org.weft.mm.affinity.CpuBinding;
import org.weft.mm.progress.ProgressEngine;
import org.weft.mm.proto.PointToPoint;
import org.weft.mm.select.MethodOrder;

import java.util.List;

/** The parameters of the multimethod device itself (each module declares its own). */
public final class DeviceParameters {
    public static final Parameter<Integer> LOCAL_SIZE = Parameter.integer("local_size", 0, "ranks",
            "ranks of this job on this host (set by weftrun; 0 = assume the whole world)");
    public static final Parameter<Integer> REPORT = Parameter.integer("report", 0, "flag",
            "1 = rank 0 prints the method matrix and per-method counters at MPI_Finalize (weftrun --report)");

    public static final Parameter<String> SITE = Parameter.string("site", "",
            "the site (cluster) this rank belongs to; set by weftrun --site, empty when the job has no sites");

    public static final Parameter<String> HOST = Parameter.string("host", "",
            "the name of this rank's host, as ranks compare it for locality (shared memory, COMM_TYPE_SHARED);"
                    + " set by weftrun to the host the rank was placed on; empty = this machine's host name");

    public static final Parameter<Integer> APPNUM = Parameter.integer("appnum", -1, "index",
            "the index of this rank's app context (MPI.APPNUM); set by weftrun (A : B, spawnMultiple), -1 = none");
    public static final Parameter<Integer> UNIVERSE_SIZE = Parameter.integer("universe_size", 0, "processes",
            "how many processes the job's hosts and slots take (MPI.UNIVERSE_SIZE); set by weftrun, 0 = the world's");
    public static final Parameter<Integer> MAXPROCS = Parameter.integer("maxprocs", 0, "processes",
            "how many processes were started with this rank's command (MPI.INFO_ENV maxprocs); set by weftrun");

    public static final Parameter<Integer> WORLD_FIRST_RANK = Parameter.integer("world_first_rank", 0, "rank",
            "the job rank of this world's first process: 0, or where a spawned world's ranks start; set by weftrun");
    public static final Parameter<Integer> PARENT = Parameter.integer("parent", -1, "rank",
            "the job rank of the root that spawned this process's world (MPI_Comm_get_parent); set by weftrun");

    public static final Parameter<Integer> COLL_SHM = Parameter.integer("coll_shm", 1, "flag",
            "1 = the blocking barrier, bcast, reduce and allreduce of a communicator whose ranks all reach each other"
                    + " through shm go through a segment they share (up to 64 KiB); 0 = point-to-point rounds");
    public static final Parameter<Integer> COLL_SHM_AHEAD = Parameter.integer("coll_shm_ahead", 0, "flag",
            "1 = on the shared segment, the writers of small rooted collectives (a bcast's root, a reduce's leaves)"
                    + " run up to 256 operations ahead of their readers (fast with a core per rank; 4-byte bcasts of 4"
                    + " ranks on 2 cores took 15-30 us against 1-4 without); 0 = 16 at most");

    public static final Parameter<Integer> COLL_TWO_LEVEL = Parameter.integer("coll_two_level", 1, "flag",
            "1 = the blocking barrier, bcast, reduce and allreduce of a communicator spanning sites or hosts run in"
                    + " two levels: each site's (host's) part on its own fast path, its leaders across; 0 = the"
                    + " hierarchical schedules");

    public static final List<Parameter<?>> ALL = List.of(MethodOrder.METHODS, IdleStrategies.IDLE_STRATEGY,
            LOCAL_SIZE, PointToPoint.FRAGMENT_SIZE, REPORT, SITE, HOST, StartupTrace.TRACE_STARTUP, Jfr.JFR,
            Jfr.JFR_DIR, APPNUM, UNIVERSE_SIZE, MAXPROCS, CpuBinding.BIND_TO, CpuBinding.REPORT_BINDINGS,
            CpuBinding.LOCAL_RANK, WORLD_FIRST_RANK, PARENT,
            ProgressEngine.POLL_HAND_OFF, ProgressEngine.POLL_FOLLOWER_SPIN, COLL_SHM,
            COLL_SHM_AHEAD, COLL_TWO_LEVEL);

    private DeviceParameters() {
    }
}
