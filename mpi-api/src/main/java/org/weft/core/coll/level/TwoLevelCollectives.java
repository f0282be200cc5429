package org.weft.core.coll.level;

import org.weft.adi.DeviceException;
import org.weft.core.coll.Collectives;
import org.weft.core.coll.DecidedOnce;
import org.weft.core.coll.Reduction;
import org.weft.core.coll.StandIn;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.TypeDescriptor;

/**
 * The blocking barrier, bcast, reduce and allreduce of an intracommunicator that spans several sites (or, inside
 * one site, several hosts), in two levels (PACX-MPI; MPICH-G2; MPICH's node and node-roots communicators): each
 * group's part is a collective of the group's internal communicator, which takes the group's own fast path (the
 * shared segment on one host, the site's native MPI, or — a site over several hosts — two levels again, by host),
 * and the groups meet in a collective of their leaders' communicator, across the slow links once per group
 * ({@link Levels}, made at the first such call). Each method returns false, having done nothing, when the call keeps
 * the schedules.
 *
 * <ul>
 *   <li>allreduce: reduce to each group's leader, allreduce among the leaders, bcast from each leader;</li>
 *   <li>bcast: in the root's group from the root, then among the leaders from the root's group's leader, then in
 *       each other group from its leader;</li>
 *   <li>reduce: each group reduces to its leader, and the leaders to the root's leader — the root, when it leads its
 *       group; otherwise that leader reduces the other groups' partials with its own data first and the root's group
 *       reduces to the root with that in place of the leader's data (commutative operations only);</li>
 *   <li>barrier: a barrier in each group, among the leaders, and in each group again.</li>
 * </ul>
 *
 * <p>Every member decides alike from what all know alike: the members' sites and hosts, the operation's
 * commutativity and the root. A non-commutative operation goes in two levels only when every group is a run of
 * consecutive ranks (and, for reduce, the root leads its group), so that both levels combine in rank order; else
 * the schedules keep it, as MPICH does. The communicator's outstanding nonblocking collectives are completed first:
 * a peer may wait for one of them before it joins this call, and the group's collectives do not advance them.
 * Nonblocking collectives keep the schedules (a two-level nonblocking call would chain requests of three
 * communicators; the schedules already cross the slow links once per group).
 */
public final class TwoLevelCollectives {
    private final Communicator comm;
    private final DecidedOnce<Levels> decided;
    /** A reduce's partial result at a leader that is not the root. */
    private final StandIn partials = new StandIn();
    /** Where this rank receives when its own receive buffer cannot: it still passes the data on ({@link StandIn}). */
    private final StandIn standIns = new StandIn();

    public TwoLevelCollectives(Communicator comm) {
        this.comm = comm;
        this.decided = new DecidedOnce<>(this::setUp, Levels::free);
    }

    /** {@code MPI_Barrier} in two levels; false if this communicator keeps the schedules. */
    public boolean barrier() {
        Levels l = decided.get();
        if (l == null) {
            return false;
        }
        run(l.group(), Collectives.barrier(l.group(), true));
        if (l.leads()) {
            run(l.leaders(), Collectives.barrier(l.leaders(), true));
        }
        run(l.group(), Collectives.barrier(l.group(), true));
        return true;
    }

    /** {@code MPI_Bcast} in two levels; false if this communicator keeps the schedules. */
    public boolean bcast(Object buf, int count, TypeDescriptor type, int root) {
        Levels l = decided.get();
        if (l == null) {
            return false;
        }
        DeviceException unwritable = comm.rank() == root ? null : StandIn.unwritable(buf, count, type);
        Object data = unwritable == null ? buf : standIns.of(count, type);
        int rootGroup = l.groupOf()[root];
        boolean inRootGroup = l.groupOf()[comm.rank()] == rootGroup;
        if (inRootGroup) {
            run(l.group(), Collectives.bcast(l.group(), data, count, type, l.indexOf()[root], true));
        }
        if (l.leads()) {
            run(l.leaders(), Collectives.bcast(l.leaders(), data, count, type, rootGroup, true));
        }
        if (!inRootGroup) {
            run(l.group(), Collectives.bcast(l.group(), data, count, type, 0, true));
        }
        StandIn.raise(unwritable);
        return true;
    }

    /** {@code MPI_Allreduce} in two levels ({@code sendbuf == null}: in place); false if it keeps the schedules. */
    public boolean allReduce(Object sendbuf, Object recvbuf, int count, TypeDescriptor type, Reduction op) {
        Levels l = decided.get();
        if (l == null || !op.commutative() && !l.contiguous()) {
            return false;
        }
        DeviceException unwritable = StandIn.unwritable(recvbuf, count, type);
        if (unwritable != null) {
            sendbuf = StandIn.input(sendbuf, recvbuf, count, type, unwritable);
            recvbuf = standIns.of(count, type);
        }
        Object input = sendbuf == null ? recvbuf : sendbuf;
        // the leader reduces into its receive buffer (in place if the call is), the others send their input
        run(l.group(), Collectives.reduce(l.group(), l.leads() ? sendbuf : input, recvbuf, count, type, op, 0,
                true));
        if (l.leads()) {
            run(l.leaders(), Collectives.allReduce(l.leaders(), null, recvbuf, count, type, op, true));
        }
        run(l.group(), Collectives.bcast(l.group(), recvbuf, count, type, 0, true));
        StandIn.raise(unwritable);
        return true;
    }

    /**
     * {@code MPI_Reduce} in two levels ({@code sendbuf == null} at the root: in place); false if it keeps the
     * schedules.
     */
    public boolean reduce(Object sendbuf, Object recvbuf, int count, TypeDescriptor type, Reduction op, int root) {
        Levels l = decided.get();
        if (l == null) {
            return false;
        }
        boolean rootLeads = l.indexOf()[root] == 0;
        if (!op.commutative() && !(l.contiguous() && rootLeads)) {
            return false;
        }
        boolean isRoot = comm.rank() == root;
        DeviceException unwritable = isRoot ? StandIn.unwritable(recvbuf, count, type) : null;
        if (unwritable != null) {
            sendbuf = StandIn.input(sendbuf, recvbuf, count, type, unwritable);
            recvbuf = standIns.of(count, type);
        }
        reduceInLevels(l, sendbuf, recvbuf, count, type, op, root);
        StandIn.raise(unwritable);
        return true;
    }

    /** The steps of {@link #reduce}. */
    private void reduceInLevels(Levels l, Object sendbuf, Object recvbuf, int count, TypeDescriptor type,
                                Reduction op, int root) {
        boolean rootLeads = l.indexOf()[root] == 0;
        int rootGroup = l.groupOf()[root];
        boolean isRoot = comm.rank() == root;
        if (l.groupOf()[comm.rank()] == rootGroup && !rootLeads) {
            // the leader gathers the other groups' partials with its own data, then stands in for it in the group
            Object partial = null;
            if (l.leads()) {
                partial = partials.of(count, type);
                run(l.leaders(), Collectives.reduce(l.leaders(), sendbuf, partial, count, type, op, rootGroup,
                        true));
            }
            run(l.group(), Collectives.reduce(l.group(), l.leads() ? partial : sendbuf, recvbuf, count, type, op,
                    l.indexOf()[root], true));
            return;
        }
        Object partial = isRoot ? recvbuf : l.leads() ? partials.of(count, type) : null;
        run(l.group(), Collectives.reduce(l.group(), sendbuf, partial, count, type, op, 0, true));
        if (l.leads()) {
            run(l.leaders(), Collectives.reduce(l.leaders(), isRoot ? null : partial, recvbuf, count, type, op,
                    rootGroup, true));
        }
    }

    /** Frees the internal communicators, if they were made. */
    public void close() {
        decided.close();
    }

    /** The levels, made now (collectively) when this communicator's calls go in two levels; else {@code null}. */
    private Levels setUp() {
        int[][] groups = comm.device().twoLevelCollectives() ? groups() : null;
        if (groups == null) {
            return null;
        }
        comm.collectives().finishOutstanding(comm.device());
        return Levels.make(comm, groups);
    }

    /**
     * The groups of the highest level that splits the members (sites, else hosts), or {@code null} when none does or
     * every group has one member (the leaders would be everyone).
     */
    private int[][] groups() {
        Members m = comm.collectives().members(comm.group(), comm.device().rank());
        for (int level : new int[] {Members.BY_SITE, Members.BY_HOST}) {
            int[][] groups = m.groups(comm.device(), level);
            if (groups.length > 1) {
                return groups.length < m.size() ? groups : null;
            }
        }
        return null;
    }

    /** Runs a blocking collective of an internal communicator to its end, as the facade runs a program's. */
    private static void run(Communicator c, Schedule schedule) {
        try {
            schedule.run(c.collectives());
        } finally {
            c.collectives().finished(schedule);
        }
    }
}
