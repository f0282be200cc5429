package org.weft.core.comm;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import org.weft.adi.ErrorClass;
import org.weft.adi.Locality;
import org.weft.adi.Ranks;
import org.weft.core.error.MpiErrors;
import org.weft.core.topo.Topology;

/**
 * Makes intracommunicators from a parent: {@code MPI_Comm_dup}, {@code split}, {@code split_type},
 * {@code create}, {@code create_group}, and new communicators that carry a virtual topology. Every operation is
 * collective over the parent (or over the group, for {@code create_group}); the new context ids are agreed over
 * the same processes ({@link ContextAgreement}). A process that does not belong to the result gets {@code null}.
 */
public final class Intracomms {
    /** {@code MPI_COMM_TYPE_SHARED}, Open MPI's value. */
    public static final int TYPE_SHARED = 0;

    private Intracomms() {
    }

    /** {@code MPI_Comm_dup}: same group and topology, copied attributes and hints, new contexts. */
    public static Communicator dup(Communicator parent) {
        if (parent.isInter()) {
            return Intercomms.dup(parent);
        }
        Topology topology = parent.topology();
        Communicator dup = create(parent, parent, parent.group(), rank -> topology);
        dup.inheritFrom(parent, true);
        return dup;
    }

    /**
     * {@code MPI_Comm_split}: one communicator per colour, ranked by key then by parent rank; {@code null} for
     * colour {@code MPI_UNDEFINED}. {@code ERR_ARG} for another negative colour.
     */
    public static Communicator split(Communicator parent, int colour, int key) {
        return split(parent, colour, key, rank -> null);
    }

    /** {@link #split}, the new communicator carrying the topology that {@code topology} makes for its rank. */
    public static Communicator split(Communicator parent, int colour, int key, IntFunction<Topology> topology) {
        checkIntra(parent);
        checkColour(colour);
        int[] all = CreationCalls.allGather(parent, new int[] {colour, key});
        ProcessGroup group = colour == Ranks.UNDEFINED ? null : chosen(parent.group(), all, colour);
        return create(parent, parent, group, topology);
    }

    /**
     * The members of {@code group} that chose {@code colour}, ordered by key then by rank in {@code group};
     * {@code choices} holds (colour, key) of each rank of {@code group} in rank order.
     */
    static ProcessGroup chosen(ProcessGroup group, int[] choices, int colour) {
        return ProcessGroup.of(IntStream.range(0, group.size()).filter(r -> choices[2 * r] == colour).boxed()
                .sorted(Comparator.<Integer>comparingInt(r -> choices[2 * r + 1]).thenComparingInt(r -> r))
                .mapToInt(group::worldRank).toArray());
    }

    /** {@code ERR_ARG} for a negative colour other than {@code MPI_UNDEFINED}. */
    static void checkColour(int colour) {
        if (colour < 0 && colour != Ranks.UNDEFINED) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "colour " + colour + " is negative");
        }
    }

    /**
     * {@code MPI_Comm_split_type}: {@code TYPE_SHARED} groups the ranks on one host ({@link Locality#sameHost});
     * {@code MPI_UNDEFINED} gives {@code null}; other types are {@code ERR_ARG}.
     */
    public static Communicator splitType(Communicator parent, int type, int key) {
        if (type != TYPE_SHARED && type != Ranks.UNDEFINED) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "unknown split type " + type);
        }
        int colour = Ranks.UNDEFINED;
        if (type == TYPE_SHARED) {
            Locality mine = parent.device().locality(parent.device().rank());
            colour = IntStream.range(0, parent.size())
                    .filter(r -> parent.device().locality(parent.group().worldRank(r)).sameHost(mine))
                    .findFirst().orElseThrow();
        }
        return split(parent, colour, key);
    }

    /**
     * {@code MPI_Comm_create}: all ranks of {@code parent} call it with the same {@code group}, a subset of the
     * parent's group ({@code ERR_GROUP} otherwise).
     */
    public static Communicator create(Communicator parent, ProcessGroup group) {
        return create(parent, group, rank -> null);
    }

    /** {@link #create(Communicator, ProcessGroup)} with a topology made for each member's new rank. */
    public static Communicator create(Communicator parent, ProcessGroup group, IntFunction<Topology> topology) {
        checkIntra(parent);
        checkSubset(parent, group);
        boolean member = group.contains(parent.device().rank());
        return create(parent, parent, member ? group : null, topology);
    }

    /**
     * {@code MPI_Comm_create_group}: collective over the members of {@code group} only. The ids are agreed among
     * them in the parent's collective context (the tag is not needed for that: collectives of the parent cannot
     * run meanwhile, as they need the members). A non-member gets {@code null} at once.
     */
    public static Communicator createGroup(Communicator parent, ProcessGroup group, int tag) {
        checkIntra(parent);
        checkSubset(parent, group);
        if (!group.contains(parent.device().rank())) {
            return null;
        }
        // A temporary communicator of the group whose collective context is the parent's.
        Communicator members = new Communicator(parent.runtime(), group, parent.context(), "", false);
        return create(parent, members, group, rank -> null);
    }

    /**
     * The two internal communicators of a communicator's two-level collectives ({@code coll.level}): {@code mine},
     * the members of this process's group (its site or host), and {@code leaders}, one member of each group, or
     * {@code null} where this process leads none. Collective over {@code parent}, which all ranks call with their own
     * group and the same leaders. One agreement takes two context ids: the groups are disjoint, so all share the
     * first; the others give the leaders' id back at once (no communicator made from it later can hold a leader,
     * whose id stays taken until the leaders' communicator is freed). Returns {mine, leaders}.
     */
    public static Communicator[] levels(Communicator parent, ProcessGroup mine, ProcessGroup leaders) {
        int[] contexts = ContextAgreement.agree(parent.runtime().contextIds(), parent.context(),
                offer -> CreationCalls.andAll(parent, offer), 2, true);
        boolean leads = leaders.contains(parent.device().rank());
        if (!leads) {
            parent.runtime().contextIds().release(contexts[1]);
        }
        Communicator group = new Communicator(parent.runtime(), mine, null, contexts[0], parent.name() + " (its part)",
                false, null);
        Communicator heads = !leads ? null : new Communicator(parent.runtime(), leaders, null, contexts[1],
                parent.name() + " (leaders)", false, null);
        return new Communicator[] {group, heads};
    }

    /**
     * The core of every creation: agrees on a context over {@code over} (all its ranks call) and builds the
     * communicator of {@code group} on its members ({@code group} is {@code null} on the others).
     */
    static Communicator create(Communicator parent, Communicator over, ProcessGroup group,
                               IntFunction<Topology> topology) {
        int[] contexts = ContextAgreement.agree(parent.runtime().contextIds(), parent.context(),
                offer -> CreationCalls.andAll(over, offer), 1, group != null);
        if (group == null) {
            return null;
        }
        int rank = group.rankOf(parent.device().rank());
        Communicator created = new Communicator(parent.runtime(), group, null, contexts[0], "", false,
                topology.apply(rank));
        created.inheritFrom(parent, false);
        return created;
    }

    private static void checkIntra(Communicator parent) {
        if (parent.isInter()) {
            throw MpiErrors.error(ErrorClass.ERR_COMM, "an intercommunicator is split and creates communicators "
                    + "through Intercomms");
        }
    }

    static void checkSubset(Communicator parent, ProcessGroup group) {
        if (Arrays.stream(group.worldRanks()).anyMatch(w -> !parent.group().contains(w))) {
            throw MpiErrors.error(ErrorClass.ERR_GROUP, group + " is not a subset of the group of " + parent);
        }
    }
}
