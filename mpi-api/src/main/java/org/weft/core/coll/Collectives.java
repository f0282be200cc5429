package org.weft.core.coll;

import java.lang.foreign.MemorySegment;

import org.weft.adi.ErrorClass;
import org.weft.core.coll.algo.LinearGather;
import org.weft.core.coll.algo.LinearScatter;
import org.weft.core.coll.algo.PairwiseAlltoall;
import org.weft.core.coll.algo.PairwiseReduceScatter;
import org.weft.core.coll.algo.RecursiveDoublingScan;
import org.weft.core.coll.algo.RingAllgather;
import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.ReusableSchedules.Kind;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.coll.sched.Schedule.Fill;
import org.weft.core.coll.level.TwoLevelCollectives;
import org.weft.core.coll.shm.SharedCollectives;
import org.weft.core.coll.site.SiteCollectives;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;

/**
 * The collectives of an intracommunicator on user buffers: checks the arguments, maps the buffers to segments
 * (Java arrays and NIO buffers of contiguous types, as point-to-point does), lets {@link Algorithms} pick the
 * algorithm and returns the call's {@link Schedule}, not started: the facade runs it ({@code run()}, blocking)
 * or starts it and wraps it in a request (nonblocking). Intercommunicators go to {@link InterCollectives}.
 * Errors are {@code DeviceException}s with the MPI error class.
 *
 * <p>A {@code null} send buffer means {@code MPI_IN_PLACE}. Buffers that matter only at the root are neither
 * checked nor touched elsewhere, so non-roots may pass {@code null}. Displacements count items of the type.
 *
 * <p>A block of the receive buffer takes what its sender sent, up to the block's size, as a point-to-point receive
 * does (and as Open MPI's linear algorithms do): data longer than the block is {@code ERR_TRUNCATE}, shorter data
 * is delivered and the rest of the block stays as it was. Where an algorithm packs blocks together (Bruck's
 * allgather and alltoall), every member must send the same amount.
 */
public final class Collectives {
    private Collectives() {
    }

    /** {@code MPI_Barrier}. */
    public static Schedule barrier(Communicator comm) {
        return barrier(comm, false);
    }

    /**
     * {@code MPI_Barrier}; {@code keep}: a blocking call, which may run the schedule the communicator kept from an
     * earlier one and keeps its own (see {@link ReusableSchedules}; so may every collective of
     * {@link Kind}).
     */
    public static Schedule barrier(Communicator comm, boolean keep) {
        if (comm.isInter()) {
            CollectiveCall call = new CollectiveCall(comm);
            InterCollectives.barrier(call);
            return call.schedule();
        }
        if (keep && site(comm).barrier()) {
            return done(comm);
        }
        SharedCollectives shared = comm.collectives().shared(comm);
        if (keep && shared.barrier()) {
            return done(comm);
        }
        if (keep && twoLevel(comm).barrier()) {
            return done(comm);
        }
        if (!keep && shared.takesNonblocking(0)) {
            CollectiveCall call = new CollectiveCall(comm);
            shared.iBarrier(call.plan());
            return call.schedule();
        }
        Schedule kept = CollectiveCall.kept(comm, keep, Kind.BARRIER, null, null, null, null, 0, 0, 0);
        if (kept != null) {
            return kept;
        }
        CollectiveCall call = new CollectiveCall(comm, keep, Kind.BARRIER, null, null, null, null, 0, 0, 0);
        Algorithms.barrier(call.plan(), comm.device(), call.members());
        return call.schedule();
    }

    /** {@code MPI_Bcast}. */
    public static Schedule bcast(Communicator comm, Object buf, int count, TypeDescriptor type, int root) {
        return bcast(comm, buf, count, type, root, false);
    }

    /** {@code MPI_Bcast}; {@code keep}: a blocking call (see {@link #barrier(Communicator, boolean)}). */
    public static Schedule bcast(Communicator comm, Object buf, int count, TypeDescriptor type, int root,
                                 boolean keep) {
        if (comm.isInter()) {
            return InterCollectives.bcast(new CollectiveCall(comm), buf, count, type, root);
        }
        checkRoot(comm, root);
        if (keep && site(comm).bcast(buf, count, type, root)) {
            return done(comm);
        }
        SharedCollectives shared = comm.collectives().shared(comm);
        if (keep && shared.bcast(buf, count, type, root)) {
            return done(comm);
        }
        if (keep && twoLevel(comm).bcast(buf, count, type, root)) {
            return done(comm);
        }
        if (!keep && shared.takesNonblockingBlocks()) {
            CollectiveCall call = new CollectiveCall(comm);
            shared.iBcast(call.plan(), comm.rank() == root ? call.in(buf, count, type) : call.out(buf, count, type),
                    root);
            return call.schedule();
        }
        Schedule kept = CollectiveCall.kept(comm, keep, Kind.BCAST, buf, null, type, null, count, 0, root);
        if (kept != null) {
            return kept;
        }
        CollectiveCall call = new CollectiveCall(comm, keep, Kind.BCAST, buf, null, type, null, count, 0, root);
        MemorySegment data = comm.rank() == root ? call.in(buf, count, type) : call.out(buf, count, type);
        Algorithms.bcast(call.plan(), comm.device(), call.members(), data, root);
        return call.schedule();
    }

    /** {@code MPI_Gather}; {@code sendbuf == null} at the root: in place. */
    public static Schedule gather(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                  Object recvbuf, int recvcount, TypeDescriptor recvtype, int root) {
        return gather(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false);
    }

    /** {@code MPI_Gather}; {@code keep}: a blocking call (see {@link #barrier(Communicator, boolean)}). */
    public static Schedule gather(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                  Object recvbuf, int recvcount, TypeDescriptor recvtype, int root, boolean keep) {
        if (comm.isInter()) {
            return gatherv(comm, sendbuf, sendcount, sendtype, recvbuf,
                    CollectiveCall.repeated(recvcount, comm.remoteGroup().size()), null, recvtype, root);
        }
        checkRoot(comm, root);
        if (keep && site(comm).gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root)) {
            return done(comm);
        }
        SharedCollectives shared = comm.collectives().shared(comm);
        if (keep && shared.gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root)) {
            return done(comm);
        }
        if (!keep && shared.takesNonblockingBlocks()) {
            CollectiveCall call = new CollectiveCall(comm);
            boolean isRoot = comm.rank() == root;
            checkCount(recvcount);
            MemorySegment recv = isRoot ? call.out(recvbuf, Math.multiplyExact(comm.size(), recvcount), recvtype)
                    : null;
            MemorySegment mine = sendbuf == null && isRoot ? null : call.in(sendbuf, sendcount, sendtype);
            shared.iGather(call.plan(), mine, recv, isRoot ? (long) recvcount * recvtype.byteSize() : 0, root);
            return call.schedule();
        }
        Schedule kept = CollectiveCall.kept(comm, keep, Kind.GATHER, sendbuf, recvbuf, sendtype, recvtype,
                sendcount, recvcount, root);
        if (kept != null) {
            return kept;
        }
        CollectiveCall call = new CollectiveCall(comm, keep, Kind.GATHER, sendbuf, recvbuf, sendtype, recvtype,
                sendcount, recvcount, root);
        return gathered(call, sendbuf, sendcount, sendtype, recvbuf,
                CollectiveCall.repeated(recvcount, comm.size()), null, recvtype, root);
    }

    /** {@code MPI_Gatherv}; {@code displs == null}: blocks side by side. */
    public static Schedule gatherv(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                   Object recvbuf, int[] recvcounts, int[] displs, TypeDescriptor recvtype,
                                   int root) {
        if (comm.isInter()) {
            return InterCollectives.gatherv(new CollectiveCall(comm), sendbuf, sendcount, sendtype, recvbuf,
                    recvcounts, displs, recvtype, root);
        }
        checkRoot(comm, root);
        return gathered(new CollectiveCall(comm), sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                recvtype, root);
    }

    /** The intracommunicator gather of {@code call}, its root checked. */
    private static Schedule gathered(CollectiveCall call, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                     Object recvbuf, int[] recvcounts, int[] displs, TypeDescriptor recvtype,
                                     int root) {
        Communicator comm = call.comm();
        boolean isRoot = comm.rank() == root;
        MemorySegment[] blocks = isRoot ? rootBlocks(call, recvbuf, recvcounts, displs, recvtype, comm.size(),
                true) : null;
        MemorySegment mine = sendbuf == null && isRoot ? null : call.in(sendbuf, sendcount, sendtype);
        if (isRoot) {
            mine = fitted(call, mine, blocks[root]);
        }
        LinearGather.append(call.plan(), call.members(), mine, blocks, root, Fill.UP_TO);
        return call.schedule();
    }

    /** {@code MPI_Scatter}; {@code recvbuf == null} at the root: in place. */
    public static Schedule scatter(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                   Object recvbuf, int recvcount, TypeDescriptor recvtype, int root) {
        return scatter(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false);
    }

    /** {@code MPI_Scatter}; {@code keep}: a blocking call (see {@link #barrier(Communicator, boolean)}). */
    public static Schedule scatter(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                   Object recvbuf, int recvcount, TypeDescriptor recvtype, int root, boolean keep) {
        if (comm.isInter()) {
            return scatterv(comm, sendbuf, CollectiveCall.repeated(sendcount, comm.remoteGroup().size()), null,
                    sendtype, recvbuf, recvcount, recvtype, root);
        }
        checkRoot(comm, root);
        if (keep && site(comm).scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root)) {
            return done(comm);
        }
        SharedCollectives shared = comm.collectives().shared(comm);
        if (keep && shared.scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root)) {
            return done(comm);
        }
        if (!keep && shared.takesNonblockingBlocks()) {
            CollectiveCall call = new CollectiveCall(comm);
            boolean isRoot = comm.rank() == root;
            checkCount(sendcount);
            MemorySegment send = isRoot ? call.in(sendbuf, Math.multiplyExact(comm.size(), sendcount), sendtype)
                    : null;
            MemorySegment mine = recvbuf == null && isRoot ? null : call.out(recvbuf, recvcount, recvtype);
            shared.iScatter(call.plan(), send, isRoot ? (long) sendcount * sendtype.byteSize() : 0, mine, root);
            return call.schedule();
        }
        Schedule kept = CollectiveCall.kept(comm, keep, Kind.SCATTER, sendbuf, recvbuf, sendtype, recvtype,
                sendcount, recvcount, root);
        if (kept != null) {
            return kept;
        }
        CollectiveCall call = new CollectiveCall(comm, keep, Kind.SCATTER, sendbuf, recvbuf, sendtype, recvtype,
                sendcount, recvcount, root);
        return scattered(call, sendbuf, CollectiveCall.repeated(sendcount, comm.size()), null, sendtype, recvbuf,
                recvcount, recvtype, root);
    }

    /** {@code MPI_Scatterv}; {@code displs == null}: blocks side by side. */
    public static Schedule scatterv(Communicator comm, Object sendbuf, int[] sendcounts, int[] displs,
                                    TypeDescriptor sendtype, Object recvbuf, int recvcount,
                                    TypeDescriptor recvtype, int root) {
        if (comm.isInter()) {
            return InterCollectives.scatterv(new CollectiveCall(comm), sendbuf, sendcounts, displs, sendtype,
                    recvbuf, recvcount, recvtype, root);
        }
        checkRoot(comm, root);
        return scattered(new CollectiveCall(comm), sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                recvtype, root);
    }

    /** The intracommunicator scatter of {@code call}, its root checked. */
    private static Schedule scattered(CollectiveCall call, Object sendbuf, int[] sendcounts, int[] displs,
                                      TypeDescriptor sendtype, Object recvbuf, int recvcount,
                                      TypeDescriptor recvtype, int root) {
        Communicator comm = call.comm();
        boolean isRoot = comm.rank() == root;
        MemorySegment[] blocks = isRoot ? rootBlocks(call, sendbuf, sendcounts, displs, sendtype, comm.size(),
                false) : null;
        MemorySegment mine = recvbuf == null && isRoot ? null : call.out(recvbuf, recvcount, recvtype);
        if (isRoot) {
            blocks[root] = fitted(call, blocks[root], mine);
        }
        LinearScatter.append(call.plan(), call.members(), blocks, mine, root, Fill.UP_TO);
        return call.schedule();
    }

    /** {@code MPI_Allgather}; {@code sendbuf == null}: in place. */
    public static Schedule allGather(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                     Object recvbuf, int recvcount, TypeDescriptor recvtype) {
        return allGather(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, false);
    }

    /** {@code MPI_Allgather}; {@code keep}: a blocking call (see {@link #barrier(Communicator, boolean)}). */
    public static Schedule allGather(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                     Object recvbuf, int recvcount, TypeDescriptor recvtype, boolean keep) {
        if (comm.isInter()) {
            return InterCollectives.allGather(new CollectiveCall(comm), sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype);
        }
        if (keep && site(comm).allGather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype)) {
            return done(comm);
        }
        SharedCollectives shared = comm.collectives().shared(comm);
        if (keep && shared.allGather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype)) {
            return done(comm);
        }
        if (!keep && shared.takesNonblockingBlocks()) {
            CollectiveCall call = new CollectiveCall(comm);
            checkCount(recvcount);
            MemorySegment recv = call.out(recvbuf, Math.multiplyExact(comm.size(), recvcount), recvtype);
            MemorySegment mine = sendbuf == null ? null : call.in(sendbuf, sendcount, sendtype);
            shared.iAllGather(call.plan(), mine, recv, (long) recvcount * recvtype.byteSize());
            return call.schedule();
        }
        Schedule kept = CollectiveCall.kept(comm, keep, Kind.ALLGATHER, sendbuf, recvbuf, sendtype, recvtype,
                sendcount, recvcount, 0);
        if (kept != null) {
            return kept;
        }
        CollectiveCall call = new CollectiveCall(comm, keep, Kind.ALLGATHER, sendbuf, recvbuf, sendtype, recvtype,
                sendcount, recvcount, 0);
        int size = comm.size();
        checkCount(recvcount);
        MemorySegment recv = call.out(recvbuf, Math.multiplyExact(size, recvcount), recvtype);
        MemorySegment mine = sendbuf == null ? null : call.in(sendbuf, sendcount, sendtype);
        long block = (long) recvcount * recvtype.byteSize();
        if (mine != null && mine.byteSize() > block) {
            throw truncated(mine.byteSize(), block);
        }
        Algorithms.allgather(call.plan(), call.members(), mine, recv, block);
        return call.schedule();
    }

    /** {@code MPI_Allgatherv}; {@code sendbuf == null}: in place. */
    public static Schedule allGatherv(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                      Object recvbuf, int[] recvcounts, int[] displs, TypeDescriptor recvtype) {
        if (comm.isInter()) {
            return InterCollectives.allGatherv(new CollectiveCall(comm), sendbuf, sendcount, sendtype, recvbuf,
                    recvcounts, displs, recvtype);
        }
        CollectiveCall call = new CollectiveCall(comm);
        MemorySegment[] blocks = rootBlocks(call, recvbuf, recvcounts, displs, recvtype, comm.size(), true);
        MemorySegment mine = sendbuf == null ? null : call.in(sendbuf, sendcount, sendtype);
        checkFits(mine, blocks[comm.rank()]);
        Schedule s = call.plan();
        Members m = call.members();
        if (Blocks.overlap(blocks)) { // erroneous, but common in course material; the ring passes blocks on
            Blocks.writtenInRankOrder(s, blocks, apart -> RingAllgather.append(s, m, mine, apart, Fill.UP_TO));
        } else {
            RingAllgather.append(s, m, mine, blocks, Fill.UP_TO);
        }
        return call.schedule();
    }

    /** {@code MPI_Alltoall}. */
    public static Schedule allToAll(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                    Object recvbuf, int recvcount, TypeDescriptor recvtype) {
        return allToAll(comm, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, false);
    }

    /** {@code MPI_Alltoall}; {@code keep}: a blocking call (see {@link #barrier(Communicator, boolean)}). */
    public static Schedule allToAll(Communicator comm, Object sendbuf, int sendcount, TypeDescriptor sendtype,
                                    Object recvbuf, int recvcount, TypeDescriptor recvtype, boolean keep) {
        if (comm.isInter()) {
            return InterCollectives.allToAll(new CollectiveCall(comm), sendbuf, sendcount, sendtype, recvbuf,
                    recvcount, recvtype);
        }
        if (keep && site(comm).allToAll(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype)) {
            return done(comm);
        }
        SharedCollectives shared = comm.collectives().shared(comm);
        if (keep && shared.allToAll(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype)) {
            return done(comm);
        }
        if (!keep && sendbuf != null && shared.takesNonblockingBlocks()) {
            CollectiveCall call = new CollectiveCall(comm);
            checkCount(sendcount);
            checkCount(recvcount);
            MemorySegment send = call.in(sendbuf, Math.multiplyExact(comm.size(), sendcount), sendtype);
            MemorySegment recv = call.out(recvbuf, Math.multiplyExact(comm.size(), recvcount), recvtype);
            shared.iAllToAll(call.plan(), send, (long) sendcount * sendtype.byteSize(), recv,
                    (long) recvcount * recvtype.byteSize());
            return call.schedule();
        }
        Schedule kept = CollectiveCall.kept(comm, keep, Kind.ALLTOALL, sendbuf, recvbuf, sendtype, recvtype,
                sendcount, recvcount, 0);
        if (kept != null) {
            return kept;
        }
        CollectiveCall call = new CollectiveCall(comm, keep, Kind.ALLTOALL, sendbuf, recvbuf, sendtype, recvtype,
                sendcount, recvcount, 0);
        int size = comm.size();
        checkCount(sendcount);
        checkCount(recvcount);
        MemorySegment send = call.in(sendbuf, Math.multiplyExact(size, sendcount), sendtype);
        MemorySegment recv = call.out(recvbuf, Math.multiplyExact(size, recvcount), recvtype);
        long sendBlock = (long) sendcount * sendtype.byteSize();
        long recvBlock = (long) recvcount * recvtype.byteSize();
        if (sendBlock > recvBlock) {
            throw truncated(sendBlock, recvBlock);
        }
        Algorithms.alltoall(call.plan(), call.members(), send, recv, sendBlock, recvBlock);
        return call.schedule();
    }

    /** {@code MPI_Alltoallv}; on an intercommunicator block j goes to and comes from remote rank j. */
    public static Schedule allToAllv(Communicator comm, Object sendbuf, int[] sendcounts, int[] sdispls,
                                     TypeDescriptor sendtype, Object recvbuf, int[] recvcounts, int[] rdispls,
                                     TypeDescriptor recvtype) {
        int size = comm.peerGroup().size();
        TypeDescriptor[] sendtypes = repeatedType(sendtype, size);
        TypeDescriptor[] recvtypes = repeatedType(recvtype, size);
        return allToAllw(comm, sendbuf, sendcounts, bytes(sdispls, sendtypes), sendtypes, recvbuf, recvcounts,
                bytes(rdispls, recvtypes), recvtypes);
    }

    /**
     * {@code MPI_Alltoallw}: displacements in bytes, one type per block; on an intercommunicator one block per
     * remote rank.
     */
    public static Schedule allToAllw(Communicator comm, Object sendbuf, int[] sendcounts, int[] sdispls,
                                     TypeDescriptor[] sendtypes, Object recvbuf, int[] recvcounts, int[] rdispls,
                                     TypeDescriptor[] recvtypes) {
        CollectiveCall call = new CollectiveCall(comm);
        int size = comm.peerGroup().size();
        MemorySegment[] send = typedBlocks(call, sendbuf, sendcounts, sdispls, sendtypes, size, false);
        MemorySegment[] recv = typedBlocks(call, recvbuf, recvcounts, rdispls, recvtypes, size, true);
        if (comm.isInter()) {
            return InterCollectives.exchange(call, send, recv);
        }
        checkFits(send[comm.rank()], recv[comm.rank()]);
        PairwiseAlltoall.append(call.plan(), call.members(), send, recv);
        return call.schedule();
    }

    /** {@code MPI_Reduce}; {@code sendbuf == null} at the root: in place; {@code recvbuf} matters at the root. */
    public static Schedule reduce(Communicator comm, Object sendbuf, Object recvbuf, int count, TypeDescriptor type,
                                  Reduction op, int root) {
        return reduce(comm, sendbuf, recvbuf, count, type, op, root, false);
    }

    /** {@code MPI_Reduce}; {@code keep}: a blocking call (see {@link #barrier(Communicator, boolean)}). */
    public static Schedule reduce(Communicator comm, Object sendbuf, Object recvbuf, int count, TypeDescriptor type,
                                  Reduction op, int root, boolean keep) {
        if (comm.isInter()) {
            return InterCollectives.reduce(new CollectiveCall(comm), sendbuf, recvbuf, count, type, op, root);
        }
        checkRoot(comm, root);
        if (keep && site(comm).reduce(sendbuf, recvbuf, count, type, op, root)) {
            return done(comm);
        }
        SharedCollectives shared = comm.collectives().shared(comm);
        if (keep && shared.reduce(sendbuf, recvbuf, count, type, op, root)) {
            return done(comm);
        }
        if (keep && twoLevel(comm).reduce(sendbuf, recvbuf, count, type, op, root)) {
            return done(comm);
        }
        if (!keep && shared.takesNonblocking(bytes(count, type))) {
            return sharedReduction(comm, shared, sendbuf, recvbuf, count, type, op, root);
        }
        Schedule kept = CollectiveCall.kept(comm, keep, Kind.REDUCE, sendbuf, recvbuf, type, op, count, 0, root);
        if (kept != null) {
            return kept;
        }
        CollectiveCall call = new CollectiveCall(comm, keep, Kind.REDUCE, sendbuf, recvbuf, type, op, count, 0, root);
        boolean isRoot = comm.rank() == root;
        MemorySegment recv = isRoot ? call.out(recvbuf, count, type) : null;
        MemorySegment send = sendbuf == null && isRoot ? recv : call.in(sendbuf, count, type);
        Algorithms.reduce(call.plan(), comm.device(), call.members(), send, recv, count, op, root);
        return call.schedule();
    }

    /** {@code MPI_Allreduce}; {@code sendbuf == null}: in place. */
    public static Schedule allReduce(Communicator comm, Object sendbuf, Object recvbuf, int count,
                                     TypeDescriptor type, Reduction op) {
        return allReduce(comm, sendbuf, recvbuf, count, type, op, false);
    }

    /** {@code MPI_Allreduce}; {@code keep}: a blocking call (see {@link #barrier(Communicator, boolean)}). */
    public static Schedule allReduce(Communicator comm, Object sendbuf, Object recvbuf, int count,
                                     TypeDescriptor type, Reduction op, boolean keep) {
        if (comm.isInter()) {
            return InterCollectives.allReduce(new CollectiveCall(comm), sendbuf, recvbuf, count, type, op);
        }
        if (keep && site(comm).allReduce(sendbuf, recvbuf, count, type, op)) {
            return done(comm);
        }
        SharedCollectives shared = comm.collectives().shared(comm);
        if (keep && shared.allReduce(sendbuf, recvbuf, count, type, op)) {
            return done(comm);
        }
        if (keep && twoLevel(comm).allReduce(sendbuf, recvbuf, count, type, op)) {
            return done(comm);
        }
        if (!keep && shared.takesNonblocking(bytes(count, type))) {
            return sharedReduction(comm, shared, sendbuf, recvbuf, count, type, op, -1);
        }
        Schedule kept = CollectiveCall.kept(comm, keep, Kind.ALLREDUCE, sendbuf, recvbuf, type, op, count, 0, 0);
        if (kept != null) {
            return kept;
        }
        CollectiveCall call = new CollectiveCall(comm, keep, Kind.ALLREDUCE, sendbuf, recvbuf, type, op, count, 0, 0);
        MemorySegment recv = call.out(recvbuf, count, type);
        MemorySegment send = sendbuf == null ? recv : call.in(sendbuf, count, type);
        Algorithms.allreduce(call.plan(), comm.device(), call.members(), send, recv, count, type.byteSize(), op);
        return call.schedule();
    }

    /**
     * A nonblocking reduce to {@code root} ({@code root < 0}: allreduce) through the communicator's shared segment
     * ({@code sendbuf == null} at a reducer: in place).
     */
    private static Schedule sharedReduction(Communicator comm, SharedCollectives shared, Object sendbuf,
                                            Object recvbuf, int count, TypeDescriptor type, Reduction op, int root) {
        CollectiveCall call = new CollectiveCall(comm);
        boolean reducer = root < 0 || comm.rank() == root;
        MemorySegment recv = reducer ? call.out(recvbuf, count, type) : null;
        MemorySegment send = sendbuf == null && reducer ? recv : call.in(sendbuf, count, type);
        shared.iReduce(call.plan(), send, recv, count, op, root);
        return call.schedule();
    }

    /** Bytes of {@code count} items of {@code type}; negative for a negative count (the schedules raise it). */
    private static long bytes(int count, TypeDescriptor type) {
        return (long) count * TypeDescriptor.check(type).byteSize();
    }

    /**
     * {@code MPI_Reduce_scatter}; {@code sendbuf == null}: in place (the input is in {@code recvbuf}). On an
     * intercommunicator {@code counts} has one entry per local rank and each group receives the other group's sum.
     */
    public static Schedule reduceScatter(Communicator comm, Object sendbuf, Object recvbuf, int[] counts,
                                         TypeDescriptor type, Reduction op) {
        if (comm.isInter()) {
            return InterCollectives.reduceScatter(new CollectiveCall(comm), sendbuf, recvbuf, counts, type, op);
        }
        return reducedScattered(new CollectiveCall(comm), sendbuf, recvbuf, counts, type, op);
    }

    /** The intracommunicator reduce-scatter of {@code call}. */
    private static Schedule reducedScattered(CollectiveCall call, Object sendbuf, Object recvbuf, int[] counts,
                                             TypeDescriptor type, Reduction op) {
        Communicator comm = call.comm();
        int size = comm.size();
        CollectiveCall.checkBlocks(counts, null, size);
        int[] displs = CollectiveCall.packed(counts, size);
        int total = CollectiveCall.extent(counts, displs, size);
        MemorySegment recv = call.out(recvbuf, sendbuf == null ? total : counts[comm.rank()], type);
        MemorySegment send = sendbuf == null ? recv : call.in(sendbuf, total, type);
        MemorySegment[] blocks = Blocks.of(send, counts, displs, type.byteSize());
        PairwiseReduceScatter.append(call.plan(), call.members(), blocks,
                recv.asSlice(0, (long) counts[comm.rank()] * type.byteSize()), counts, op.combiner());
        return call.schedule();
    }

    /** {@code MPI_Reduce_scatter_block}; {@code sendbuf == null}: in place. */
    public static Schedule reduceScatterBlock(Communicator comm, Object sendbuf, Object recvbuf, int count,
                                              TypeDescriptor type, Reduction op) {
        return reduceScatterBlock(comm, sendbuf, recvbuf, count, type, op, false);
    }

    /**
     * {@code MPI_Reduce_scatter_block}; {@code keep}: a blocking call (see {@link #barrier(Communicator, boolean)}).
     */
    public static Schedule reduceScatterBlock(Communicator comm, Object sendbuf, Object recvbuf, int count,
                                              TypeDescriptor type, Reduction op, boolean keep) {
        checkCount(count);
        if (comm.isInter()) {
            return reduceScatter(comm, sendbuf, recvbuf, CollectiveCall.repeated(count, comm.size()), type, op);
        }
        if (keep && site(comm).reduceScatterBlock(sendbuf, recvbuf, count, type, op)) {
            return done(comm);
        }
        SharedCollectives shared = comm.collectives().shared(comm);
        if (keep && shared.reduceScatterBlock(sendbuf, recvbuf, count, type, op)) {
            return done(comm);
        }
        if (!keep && shared.takesNonblocking(bytes(count, type) * comm.size())) {
            CollectiveCall call = new CollectiveCall(comm);
            MemorySegment recv = call.out(recvbuf, count, type);
            MemorySegment send = call.in(sendbuf == null ? recvbuf : sendbuf, count * comm.size(), type);
            shared.iReduceScatterBlock(call.plan(), send, recv, count, op);
            return call.schedule();
        }
        Schedule kept = CollectiveCall.kept(comm, keep, Kind.REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, type, op,
                count, 0, 0);
        if (kept != null) {
            return kept;
        }
        CollectiveCall call = new CollectiveCall(comm, keep, Kind.REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, type, op,
                count, 0, 0);
        return reducedScattered(call, sendbuf, recvbuf, CollectiveCall.repeated(count, comm.size()), type, op);
    }

    /** {@code MPI_Scan} ({@code exclusive}: {@code MPI_Exscan}); {@code sendbuf == null}: in place. */
    public static Schedule scan(Communicator comm, Object sendbuf, Object recvbuf, int count, TypeDescriptor type,
                                Reduction op, boolean exclusive) {
        return scan(comm, sendbuf, recvbuf, count, type, op, exclusive, false);
    }

    /**
     * {@code MPI_Scan} or {@code MPI_Exscan}; {@code keep}: a blocking call (see
     * {@link #barrier(Communicator, boolean)}).
     */
    public static Schedule scan(Communicator comm, Object sendbuf, Object recvbuf, int count, TypeDescriptor type,
                                Reduction op, boolean exclusive, boolean keep) {
        if (comm.isInter()) {
            throw MpiErrors.error(ErrorClass.ERR_COMM, "scans are not defined on intercommunicators");
        }
        int which = exclusive ? 1 : 0;
        Schedule kept = CollectiveCall.kept(comm, keep, Kind.SCAN, sendbuf, recvbuf, type, op, count, which, 0);
        if (kept != null) {
            return kept;
        }
        CollectiveCall call = new CollectiveCall(comm, keep, Kind.SCAN, sendbuf, recvbuf, type, op, count, which, 0);
        MemorySegment recv = call.out(recvbuf, count, type);
        MemorySegment send = sendbuf == null ? recv : call.in(sendbuf, count, type);
        if (send.byteSize() > 0) {
            RecursiveDoublingScan.append(call.plan(), call.members(), send, recv, count, op.combiner(), exclusive);
        }
        return call.schedule();
    }

    /** {@code MPI_Reduce_local}: {@code inoutbuf[i] = inbuf[i] op inoutbuf[i]}. */
    public static void reduceLocal(Object inbuf, Object inoutbuf, int count, TypeDescriptor type, Reduction op) {
        MemorySegment in = BufferMapping.forSend(inbuf, count, type);
        MemorySegment inout = BufferMapping.forReceive(inoutbuf, count, type);
        if (BufferMapping.needsFinish(inoutbuf, type)) {
            inout = BufferMapping.forSend(inoutbuf, count, type); // a staged copy holding the current values
        }
        op.combiner().combine(in, inout, count);
        BufferMapping.finishReceive(inoutbuf, count, type, inout, inout.byteSize());
    }

    /**
     * {@code comm}'s collectives by its site's native MPI, asked first by every blocking collective: a communicator
     * wholly inside one native site runs them there ({@link SiteCollectives}).
     */
    private static SiteCollectives site(Communicator comm) {
        return comm.collectives().site(comm);
    }

    /**
     * {@code comm}'s collectives in two levels, asked by the blocking barrier, bcast, reduce and allreduce after the
     * site's and the segment's: a communicator spanning sites or hosts runs each group's part on the group's own
     * fast path ({@link TwoLevelCollectives}).
     */
    private static TwoLevelCollectives twoLevel(Communicator comm) {
        return comm.collectives().twoLevel(comm);
    }

    /** What a blocking collective that ran on the site's, the segment's or the two-level path returns to be run. */
    private static Schedule done(Communicator comm) {
        return comm.collectives().done(comm);
    }

    /** {@code ERR_ROOT} unless {@code root} is a rank of {@code comm}. */
    public static void checkRoot(Communicator comm, int root) {
        if (root < 0 || root >= comm.size()) {
            throw MpiErrors.error(ErrorClass.ERR_ROOT, "root " + root + " is not a rank of " + comm.name()
                    + " (size " + comm.size() + ")");
        }
    }

    /** Blocks of {@code buffer} at item displacements ({@code null}: side by side), mapped for receive or send. */
    static MemorySegment[] rootBlocks(CollectiveCall call, Object buffer, int[] counts, int[] displs,
                                      TypeDescriptor type, int n, boolean receive) {
        CollectiveCall.checkBlocks(counts, displs, n);
        int[] at = displs != null ? displs : CollectiveCall.packed(counts, n);
        int items = CollectiveCall.extent(counts, at, n);
        MemorySegment base = receive ? call.out(buffer, items, type) : call.in(buffer, items, type);
        return Blocks.of(base, counts, at, TypeDescriptor.check(type).byteSize());
    }

    private static MemorySegment[] typedBlocks(CollectiveCall call, Object buffer, int[] counts, int[] byteDispls,
                                               TypeDescriptor[] types, int n, boolean receive) {
        CollectiveCall.checkBlocks(counts, byteDispls, n);
        if (types == null || types.length < n) {
            throw MpiErrors.error(ErrorClass.ERR_TYPE, "one datatype per rank is needed (" + n + ")");
        }
        long end = 0;
        for (int i = 0; i < n; i++) {
            if (counts[i] > 0) {
                end = Math.max(end, byteDispls[i] + (long) counts[i] * TypeDescriptor.check(types[i]).byteSize());
            }
        }
        // one view over the bytes the blocks span, counted in the buffer's own elements
        TypeDescriptor element = TypeDescriptor.predefined("element", TypeDescriptor.check(types[0]).base(), 1);
        int elements = Math.toIntExact((end + element.byteSize() - 1) / element.byteSize());
        MemorySegment base = receive ? call.out(buffer, elements, element) : call.in(buffer, elements, element);
        MemorySegment[] blocks = new MemorySegment[n];
        for (int i = 0; i < n; i++) {
            blocks[i] = counts[i] == 0 ? base.asSlice(0, 0)
                    : base.asSlice(byteDispls[i], (long) counts[i] * types[i].byteSize());
        }
        return blocks;
    }

    private static TypeDescriptor[] repeatedType(TypeDescriptor type, int n) {
        TypeDescriptor[] types = new TypeDescriptor[n];
        java.util.Arrays.fill(types, TypeDescriptor.check(type));
        return types;
    }

    private static int[] bytes(int[] displs, TypeDescriptor[] types) {
        if (displs == null) {
            return null;
        }
        int[] bytes = new int[displs.length];
        for (int i = 0; i < displs.length; i++) {
            bytes[i] = Math.multiplyExact(displs[i], types[Math.min(i, types.length - 1)].byteSize());
        }
        return bytes;
    }

    /**
     * {@code ERR_TRUNCATE} if the block this rank sends itself is longer than its own receive block (shorter is
     * delivered as it is); {@code null} (in place) fits.
     */
    private static void checkFits(MemorySegment sent, MemorySegment room) {
        if (sent != null && room != null && sent.byteSize() > room.byteSize()) {
            throw truncated(sent.byteSize(), room.byteSize());
        }
    }

    /**
     * The root's own block {@code sent}, cut to {@code room} if longer — {@code ERR_TRUNCATE} then, raised when the
     * call has run to its end ({@link CollectiveCall#failAtEnd}), so the others get their blocks and nobody waits, as
     * over the shared segment; {@code null} (in place) fits.
     */
    private static MemorySegment fitted(CollectiveCall call, MemorySegment sent, MemorySegment room) {
        if (sent == null || room == null || sent.byteSize() <= room.byteSize()) {
            return sent;
        }
        call.failAtEnd(truncated(sent.byteSize(), room.byteSize()));
        return sent.asSlice(0, room.byteSize());
    }

    static void checkCount(int count) {
        if (count < 0) {
            throw MpiErrors.error(ErrorClass.ERR_COUNT, "negative count " + count);
        }
    }

    static org.weft.adi.DeviceException truncated(long sent, long room) {
        return MpiErrors.error(ErrorClass.ERR_TRUNCATE, "a block of " + sent + " bytes sent into a receive block of "
                + room + " bytes (do the send and receive counts and types agree?)");
    }
}
