package org.weft.core.coll;

import java.lang.foreign.MemorySegment;

import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.coll.algo.BinomialBcast;
import org.weft.core.coll.algo.BinomialReduce;
import org.weft.core.coll.algo.LinearGather;
import org.weft.core.coll.algo.LinearScatter;
import org.weft.core.coll.algo.OrderedLinearReduce;
import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.coll.sched.Schedule.Fill;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;

/**
 * The collectives of an intercommunicator (MPI 4.1 §6.2.2): data flows from one group to the other. In rooted
 * operations the root passes {@link #ROOT}, the other members of its group {@code PROC_NULL}, and the members of
 * the other group the root's rank in the remote group. Each group's rank 0 is its leader: it is the one process
 * that talks to the other group where a result must be spread or collected in the group first.
 */
final class InterCollectives {
    /** {@code MPI_ROOT}. */
    static final int ROOT = -4;

    private InterCollectives() {
    }

    static void barrier(CollectiveCall call) {
        Schedule s = call.plan();
        Members local = call.members();
        if (local.me() != 0) {
            s.signal(local.world(0)).endRound();
            s.awaitSignal(local.world(0)).endRound();
            return;
        }
        for (int i = 1; i < local.size(); i++) {
            s.awaitSignal(local.world(i));
        }
        s.endRound();
        int remoteLeader = call.comm().toWorld(0);
        s.signal(remoteLeader).awaitSignal(remoteLeader).endRound();
        for (int i = 1; i < local.size(); i++) {
            s.signal(local.world(i));
        }
        s.endRound();
    }

    static Schedule bcast(CollectiveCall call, Object buf, int count, TypeDescriptor type, int root) {
        Communicator comm = call.comm();
        checkRoot(comm, root);
        if (root == ROOT) {
            call.plan().send(call.in(buf, count, type), comm.toWorld(0)).endRound();
        } else if (root != Ranks.PROC_NULL) {
            MemorySegment data = call.out(buf, count, type);
            if (comm.rank() == 0) {
                call.plan().receive(data, comm.toWorld(root)).endRound();
            }
            BinomialBcast.append(call.plan(), call.members(), data, 0);
        }
        return call.schedule();
    }

    static Schedule reduce(CollectiveCall call, Object sendbuf, Object recvbuf, int count, TypeDescriptor type,
                           Reduction op, int root) {
        Communicator comm = call.comm();
        checkRoot(comm, root);
        if (root == ROOT) {
            call.plan().receive(call.out(recvbuf, count, type), comm.toWorld(0)).endRound();
        } else if (root != Ranks.PROC_NULL) {
            MemorySegment send = call.in(sendbuf, count, type);
            MemorySegment partial = Blocks.scratch(send.byteSize());
            reduceToLeader(call.plan(), call.members(), send, partial, count, op);
            if (comm.rank() == 0) {
                call.plan().send(partial, comm.toWorld(root)).endRound();
            }
        }
        return call.schedule();
    }

    static Schedule allReduce(CollectiveCall call, Object sendbuf, Object recvbuf, int count, TypeDescriptor type,
                              Reduction op) {
        Communicator comm = call.comm();
        MemorySegment recv = call.out(recvbuf, count, type);
        MemorySegment send = call.in(sendbuf, count, type);
        MemorySegment partial = Blocks.scratch(send.byteSize());
        Schedule s = call.plan();
        reduceToLeader(s, call.members(), send, partial, count, op);
        if (comm.rank() == 0) {
            s.send(partial, comm.toWorld(0)).receive(recv, comm.toWorld(0)).endRound();
        }
        BinomialBcast.append(s, call.members(), recv, 0);
        return call.schedule();
    }

    static Schedule gatherv(CollectiveCall call, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                            Object recvbuf, int[] recvcounts, int[] displs, TypeDescriptor recvtype, int root) {
        Communicator comm = call.comm();
        checkRoot(comm, root);
        if (root == ROOT) {
            int remote = comm.remoteGroup().size();
            MemorySegment[] blocks = Collectives.rootBlocks(call, recvbuf, recvcounts, displs, recvtype, remote,
                    true);
            boolean inRankOrder = Blocks.overlap(blocks); // as LinearGather: the last rank's block wins
            for (int i = 0; i < remote; i++) {
                call.plan().receive(blocks[i], comm.toWorld(i), Fill.UP_TO);
                if (inRankOrder) {
                    call.plan().endRound();
                }
            }
            call.plan().endRound();
        } else if (root != Ranks.PROC_NULL) {
            call.plan().send(call.in(sendbuf, sendcount, sendtype), comm.toWorld(root)).endRound();
        }
        return call.schedule();
    }

    static Schedule scatterv(CollectiveCall call, Object sendbuf, int[] sendcounts, int[] displs,
                             TypeDescriptor sendtype, Object recvbuf, int recvcount, TypeDescriptor recvtype,
                             int root) {
        Communicator comm = call.comm();
        checkRoot(comm, root);
        if (root == ROOT) {
            int remote = comm.remoteGroup().size();
            MemorySegment[] blocks = Collectives.rootBlocks(call, sendbuf, sendcounts, displs, sendtype, remote,
                    false);
            for (int i = 0; i < remote; i++) {
                call.plan().send(blocks[i], comm.toWorld(i));
            }
            call.plan().endRound();
        } else if (root != Ranks.PROC_NULL) {
            call.plan().receive(call.out(recvbuf, recvcount, recvtype), comm.toWorld(root), Fill.UP_TO).endRound();
        }
        return call.schedule();
    }

    /** Each group gathers its blocks at its leader, the leaders swap them, and each leader spreads the other's. */
    static Schedule allGather(CollectiveCall call, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                              Object recvbuf, int recvcount, TypeDescriptor recvtype) {
        Communicator comm = call.comm();
        Collectives.checkCount(recvcount);
        Members local = call.members();
        MemorySegment mine = call.in(sendbuf, sendcount, sendtype);
        MemorySegment recv = call.out(recvbuf, Math.multiplyExact(comm.remoteGroup().size(), recvcount),
                recvtype);
        MemorySegment gathered = Blocks.scratch(mine.byteSize() * local.size());
        Schedule s = call.plan();
        LinearGather.append(s, local, mine, Blocks.equal(gathered, local.size(), mine.byteSize()), 0, Fill.EXACT);
        if (comm.rank() == 0) {
            s.send(gathered, comm.toWorld(0)).receive(recv, comm.toWorld(0)).endRound();
        }
        BinomialBcast.append(s, local, recv, 0);
        return call.schedule();
    }

    /**
     * Every process sends its block straight to every remote rank: the blocks may differ in size, and a process
     * knows only the sizes it receives, so no leader could pack them (p·q messages, one round).
     */
    static Schedule allGatherv(CollectiveCall call, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                               Object recvbuf, int[] recvcounts, int[] displs, TypeDescriptor recvtype) {
        int remote = call.comm().remoteGroup().size();
        MemorySegment[] in = Collectives.rootBlocks(call, recvbuf, recvcounts, displs, recvtype, remote, true);
        MemorySegment[] out = new MemorySegment[remote];
        java.util.Arrays.fill(out, call.in(sendbuf, sendcount, sendtype));
        if (Blocks.overlap(in)) { // erroneous, but common in course material
            Blocks.writtenInRankOrder(call.plan(), in, apart -> transfers(call, out, apart));
            return call.schedule();
        }
        return exchange(call, out, in);
    }

    /** Block j goes to remote rank j and block j comes from remote rank j, all at once. */
    static Schedule allToAll(CollectiveCall call, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                             Object recvbuf, int recvcount, TypeDescriptor recvtype) {
        int remote = call.comm().remoteGroup().size();
        Collectives.checkCount(sendcount);
        Collectives.checkCount(recvcount);
        MemorySegment send = call.in(sendbuf, Math.multiplyExact(remote, sendcount), sendtype);
        MemorySegment recv = call.out(recvbuf, Math.multiplyExact(remote, recvcount), recvtype);
        return exchange(call, Blocks.equal(send, remote, (long) sendcount * sendtype.byteSize()),
                Blocks.equal(recv, remote, (long) recvcount * recvtype.byteSize()));
    }

    /**
     * {@code out[j]} goes to remote rank j and {@code in[j]} comes from it, all in one round; {@code in[j]} takes
     * what was sent, up to its size.
     */
    static Schedule exchange(CollectiveCall call, MemorySegment[] out, MemorySegment[] in) {
        transfers(call, out, in);
        return call.schedule();
    }

    private static void transfers(CollectiveCall call, MemorySegment[] out, MemorySegment[] in) {
        Communicator comm = call.comm();
        for (int j = 0; j < out.length; j++) {
            call.plan().send(out[j], comm.toWorld(j)).receive(in[j], comm.toWorld(j), Fill.UP_TO);
        }
        call.plan().endRound();
    }

    /**
     * Each group reduces its whole vector at its leader, the leaders swap the results, and each leader scatters
     * the other group's result over its own group by {@code counts} (one entry per local rank; both groups'
     * counts must add up to the same total).
     */
    static Schedule reduceScatter(CollectiveCall call, Object sendbuf, Object recvbuf, int[] counts,
                                  TypeDescriptor type, Reduction op) {
        Communicator comm = call.comm();
        int size = comm.size();
        CollectiveCall.checkBlocks(counts, null, size);
        int[] displs = CollectiveCall.packed(counts, size);
        int total = CollectiveCall.extent(counts, displs, size);
        MemorySegment send = call.in(sendbuf, total, type);
        MemorySegment recv = call.out(recvbuf, counts[comm.rank()], type);
        MemorySegment partial = Blocks.scratch(send.byteSize());
        Schedule s = call.plan();
        reduceToLeader(s, call.members(), send, partial, total, op);
        MemorySegment[] theirs = null;
        if (comm.rank() == 0) {
            MemorySegment remoteResult = Blocks.scratch(send.byteSize());
            s.send(partial, comm.toWorld(0)).receive(remoteResult, comm.toWorld(0)).endRound();
            theirs = Blocks.of(remoteResult, counts, displs, type.byteSize());
        }
        LinearScatter.append(s, call.members(), theirs, recv, 0, Fill.EXACT);
        return call.schedule();
    }

    private static void reduceToLeader(Schedule s, Members local, MemorySegment send, MemorySegment partial,
                                       int count, Reduction op) {
        if (op.commutative()) {
            BinomialReduce.append(s, local, send, partial, count, op.combiner(), 0);
        } else {
            OrderedLinearReduce.append(s, local, send, partial, count, op.combiner(), 0);
        }
    }

    /** {@code ERR_ROOT} unless {@code root} is {@code MPI_ROOT}, {@code PROC_NULL} or a rank of the remote group. */
    private static void checkRoot(Communicator comm, int root) {
        if (root != ROOT && root != Ranks.PROC_NULL && (root < 0 || root >= comm.remoteGroup().size())) {
            throw MpiErrors.error(ErrorClass.ERR_ROOT, "root " + root + " is neither MPI_ROOT, MPI_PROC_NULL nor"
                    + " a rank of the remote group of " + comm.name());
        }
    }
}
