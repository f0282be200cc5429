package org.weft.core.comm;

import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.error.MpiErrors;

/**
 * Makes and merges intercommunicators: {@code MPI_Intercomm_create}, {@code MPI_Comm_dup}, {@code split} and
 * {@code create} of an intercommunicator, and {@code MPI_Intercomm_merge}. The two groups reach each other only through their leaders;
 * so context ids are agreed by an AND within each group, a swap of the two results between the leaders, and a
 * broadcast of the combined mask in each group. Both groups then use the same ids.
 *
 * <p>Each intercommunicator also gets an intracommunicator over its local group (a second pair of ids), on which
 * later creation steps (dup, merge) run their in-group collectives.
 */
public final class Intercomms {
    private Intercomms() {
    }

    /**
     * How the two groups' leaders talk: each gives the other {@code out} and gets its {@code in} (as long). Over a
     * communicator ({@link CommLink}), or over the socket of a port between two jobs.
     */
    public interface LeaderLink {
        void swap(int[] out, int[] in);
    }

    /** Leaders that talk over a communicator, in a context, to a rank, with a tag. */
    private record CommLink(Communicator via, int context, int remoteLeader, int tag) implements LeaderLink {
        @Override
        public void swap(int[] out, int[] in) {
            CreationCalls.swap(via, context, remoteLeader, tag, out, in);
        }
    }

    /**
     * {@code MPI_Intercomm_create}: every rank of {@code local} calls it; the leaders ({@code localLeader} in
     * {@code local}) talk over {@code peer} to {@code remoteLeader} (a rank of {@code peer}) with {@code tag}.
     */
    public static Communicator create(Communicator local, int localLeader, Communicator peer, int remoteLeader,
                                      int tag) {
        if (local.isInter()) {
            throw MpiErrors.error(ErrorClass.ERR_COMM, "the local communicator must be an intracommunicator");
        }
        local.group().checkRank(localLeader);
        boolean leader = local.rank() == localLeader;
        LeaderLink link = null;
        if (leader) {
            peer.checkUsable();
            peer.peerGroup().checkRank(remoteLeader);
            link = new CommLink(peer, peer.context(), remoteLeader, tag);
        }
        ProcessGroup remote = exchangeGroups(local, localLeader, link);
        return build(local, localLeader, link, local.group(), remote, local);
    }

    /**
     * The intercommunicator between {@code local} and a group every process of {@code local} knows already
     * ({@code remote}, by the job ranks this process knows its processes by), whose leader {@code link} reaches
     * ({@code null} off {@code localLeader}): the two groups agree on context ids through the leaders. For groups
     * that met through a port, where the leaders talk over the port's socket.
     */
    public static Communicator create(Communicator local, int localLeader, LeaderLink link, ProcessGroup remote) {
        return build(local, localLeader, link, local.group(), remote, local);
    }

    /**
     * {@code MPI_Comm_split} of an intercommunicator (MPI 4.1 §7.4.2): the processes of both groups that chose one
     * colour form an intercommunicator, each group ordered by key then rank; {@code null} for colour
     * {@code MPI_UNDEFINED} and for a colour that the other group did not choose.
     */
    public static Communicator split(Communicator inter, int colour, int key) {
        checkInter(inter);
        Intracomms.checkColour(colour);
        Communicator local = inter.localCommunicator();
        LeaderLink link = linkOf(inter);
        int[] localChoices = CreationCalls.allGather(local, new int[] {colour, key});
        int[] remoteChoices = exchange(local, 0, link, localChoices);
        if (colour == Ranks.UNDEFINED) {
            return build(local, 0, link, null, null, inter);
        }
        return build(local, 0, link, Intracomms.chosen(inter.group(), localChoices, colour),
                Intracomms.chosen(inter.remoteGroup(), remoteChoices, colour), inter);
    }

    /**
     * {@code MPI_Comm_create} of an intercommunicator (MPI 4.1 §7.4.2): each group passes a subgroup of itself;
     * the result joins the two subgroups. {@code null} for a process outside its group's subgroup, and for all
     * when either subgroup is empty.
     */
    public static Communicator create(Communicator inter, ProcessGroup group) {
        checkInter(inter);
        Intracomms.checkSubset(inter, group);
        Communicator local = inter.localCommunicator();
        LeaderLink link = linkOf(inter);
        ProcessGroup remote = ProcessGroup.of(exchange(local, 0, link, group.worldRanks()));
        boolean member = group.contains(inter.device().rank());
        return build(local, 0, link, member ? group : null, remote, inter);
    }

    /** {@code MPI_Comm_dup} of an intercommunicator. */
    static Communicator dup(Communicator inter) {
        Communicator local = inter.localCommunicator();
        Communicator dup = build(local, 0, linkOf(inter), inter.group(), inter.remoteGroup(), inter);
        dup.inheritFrom(inter, true);
        return dup;
    }

    /**
     * {@code MPI_Intercomm_merge}: an intracommunicator of both groups, the group whose ranks passed
     * {@code high = false} first; when both passed the same value, the group of the lower leader's world rank.
     */
    public static Communicator merge(Communicator inter, boolean high) {
        checkInter(inter);
        Communicator local = inter.localCommunicator();
        LeaderLink link = linkOf(inter);
        int[] remoteHigh = new int[1];
        if (link != null) {
            link.swap(new int[] {high ? 1 : 0}, remoteHigh);
        }
        CreationCalls.bcast(local, remoteHigh, 0);
        boolean localFirst = high != (remoteHigh[0] == 1) ? !high
                : inter.group().worldRank(0) < inter.remoteGroup().worldRank(0);
        ProcessGroup merged = localFirst ? concat(inter.group(), inter.remoteGroup())
                : concat(inter.remoteGroup(), inter.group());
        int[] contexts = agree(local, 0, link, 1, true);
        Communicator result = new Communicator(inter.runtime(), merged, null, contexts[0], "", false, null);
        result.inheritFrom(inter, false);
        return result;
    }

    /** The leaders' link of an existing intercommunicator (rank 0 of each group), {@code null} off the leader. */
    private static LeaderLink linkOf(Communicator inter) {
        return inter.rank() == 0
                ? new CommLink(inter, inter.collectiveContext(), 0, CreationCalls.LEADER_SWAP_TAG) : null;
    }

    /**
     * The other group's {@code mine} on every process of {@code local}: the leaders swap lengths, then the arrays,
     * and broadcast what they got in their group. Only the leader's {@code mine} counts.
     */
    private static int[] exchange(Communicator local, int localLeader, LeaderLink link, int[] mine) {
        int[] remoteLength = new int[1];
        if (link != null) {
            link.swap(new int[] {mine.length}, remoteLength);
        }
        CreationCalls.bcast(local, remoteLength, localLeader);
        int[] theirs = new int[remoteLength[0]];
        if (link != null) {
            link.swap(mine, theirs);
        }
        CreationCalls.bcast(local, theirs, localLeader);
        return theirs;
    }

    private static ProcessGroup exchangeGroups(Communicator local, int localLeader, LeaderLink link) {
        int[] remoteRanks = exchange(local, localLeader, link, local.group().worldRanks());
        ProcessGroup remote = ProcessGroup.of(remoteRanks);
        for (int w : remoteRanks) {
            if (local.group().contains(w)) {
                throw MpiErrors.error(ErrorClass.ERR_COMM, "the local and remote groups overlap (world rank " + w
                        + ")");
            }
        }
        return remote;
    }

    /**
     * Agrees on two pairs of ids over both groups and builds the intercommunicator with its local comm; every
     * process of both groups calls it, and gets {@code null} when {@code group} or {@code remote} is null or empty.
     */
    private static Communicator build(Communicator local, int localLeader, LeaderLink link, ProcessGroup group,
                                      ProcessGroup remote, Communicator parent) {
        boolean member = group != null && remote != null && group.size() > 0 && remote.size() > 0;
        int[] contexts = agree(local, localLeader, link, 2, member);
        if (!member) {
            return null;
        }
        Communicator inter = new Communicator(local.runtime(), group, remote, contexts[0], "", false, null);
        inter.setLocalCommunicator(new Communicator(local.runtime(), group, null, contexts[1], "", false, null));
        inter.inheritFrom(parent, false);
        return inter;
    }

    /** Ids free on every process of both groups: AND in each group, swap between leaders, broadcast. */
    private static int[] agree(Communicator local, int localLeader, LeaderLink link, int count, boolean member) {
        return ContextAgreement.agree(local.runtime().contextIds(), local.context(), offer -> {
            CreationCalls.andAll(local, offer);
            if (link != null) {
                int[] remote = new int[offer.length];
                link.swap(offer.clone(), remote);
                for (int i = 0; i < offer.length; i++) {
                    offer[i] &= remote[i];
                }
            }
            CreationCalls.bcast(local, offer, localLeader);
        }, count, member);
    }

    private static void checkInter(Communicator comm) {
        if (!comm.isInter()) {
            throw MpiErrors.error(ErrorClass.ERR_COMM, comm + " is not an intercommunicator");
        }
    }

    private static ProcessGroup concat(ProcessGroup first, ProcessGroup second) {
        int[] a = first.worldRanks();
        int[] b = second.worldRanks();
        int[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return ProcessGroup.of(all);
    }
}
