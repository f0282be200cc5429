package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

import org.weft.adi.DeviceException;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.adi.SendMode;
import org.weft.adi.jfr.Collective;
import org.weft.adi.jfr.Jfr;
import org.weft.adi.jfr.WeftEvents;
import org.weft.core.JitHints;
import org.weft.core.RuntimeBinding;
import org.weft.core.coll.Collectives;
import org.weft.core.coll.NeighborCollectives;
import org.weft.core.coll.sched.Schedule;
import org.weft.core.coll.Reduction;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.Intercomms;
import org.weft.core.comm.Intracomms;
import org.weft.core.topo.CartesianTopology;
import org.weft.core.topo.DistGraphTopology;
import org.weft.core.topo.GraphTopology;
import org.weft.core.topo.Topology;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;
import org.weft.core.p2p.Arguments;
import org.weft.core.p2p.PointToPoint;

/**
 * A communicator ({@code MPI_Comm}). {@link MPI#COMM_WORLD} and {@link MPI#COMM_SELF} resolve the calling
 * thread's runtime on each call (see {@code org.weft.core.RuntimeBinding}); other communicators hold their core
 * communicator directly. Communicator management (dup, free, groups, info, attributes, error handlers, names,
 * intercommunicators, topologies) delegates to {@code org.weft.core.comm} and {@code org.weft.core.topo}; every
 * collective (blocking and nonblocking, neighbour collectives over the topology) to {@code org.weft.core.coll};
 * operations Weft lacks raise {@code MPI.ERR_UNSUPPORTED_OPERATION} through the error handler.
 */
public class Comm implements Freeable, Cloneable {
    /** {@code MPI_COMM_TYPE_SHARED}. */
    public static final int TYPE_SHARED = 0;

    static final int NOT_PREDEFINED = 0;
    static final int WORLD = 1;
    static final int SELF = 2;

    private final Communicator communicator;
    private final int predefined;

    /** A predefined communicator ({@link #WORLD} or {@link #SELF}) resolved per thread. */
    Comm(int predefined) {
        this.communicator = null;
        this.predefined = predefined;
    }

    /** A communicator bound to one core communicator (null: {@code MPI_COMM_NULL}). */
    Comm(Communicator communicator) {
        this.communicator = communicator;
        this.predefined = NOT_PREDEFINED;
    }

    /**
     * The core communicator; {@code ERR_OTHER} before Init/after Finalize, {@code ERR_COMM} if null or freed (raised
     * on {@code MPI_COMM_WORLD}, whose handler aborts the job by default).
     */
    final Communicator core() throws MPIException {
        Communicator c = communicator;
        if (c == null) {
            if (predefined == NOT_PREDEFINED) {
                throw Errors.invalidCommunicator(null);
            }
            try {
                c = predefined == WORLD ? RuntimeBinding.runtime().world() : RuntimeBinding.runtime().self();
            } catch (DeviceException e) {
                throw Errors.onWorld("MPI", e);
            }
        }
        if (c.isFreed()) {
            throw Errors.invalidCommunicator(c);
        }
        return c;
    }

    /** {@link #dup()}, with errors as unchecked exceptions (Open MPI's behaviour). */
    @Override
    public Comm clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** {@code MPI_Comm_dup}: same group and topology, copied attributes, hints and error handler. */
    public Comm dup() throws MPIException {
        Communicator c = core();
        try {
            return wrap(Intracomms.dup(c));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Comm_dup", e);
        }
    }

    /** {@code MPI_Comm_idup}: completes at once, so {@link #getRequest()} is a completed (null) request. */
    public Comm iDup() throws MPIException {
        return dup();
    }

    /** {@code MPI_Comm_dup_with_info}: a duplicate whose hints are {@code info}'s. */
    public Comm dupWithInfo(Info info) throws MPIException {
        Comm dup = dup();
        dup.setInfo(info);
        return dup;
    }

    /** A step on the core communicator; may throw the core's errors. */
    @FunctionalInterface
    interface CoreStep<T> {
        T apply(Communicator c);
    }

    /** Runs a step on the core communicator; its errors go through this communicator's error handler. */
    final <T> T guarded(String call, CoreStep<T> step) throws MPIException {
        Communicator c = core();
        try {
            return step.apply(c);
        } catch (DeviceException e) {
            throw Errors.raise(c, call, e);
        }
    }

    /** Runs a creation step (making a core communicator from this one's); wraps the result by its kind. */
    final Comm created(String call, CoreStep<Communicator> creation) throws MPIException {
        return wrap(guarded(call, creation));
    }

    /**
     * The facade object for a core communicator: {@code CartComm}, {@code GraphComm}, {@code Intercomm} or
     * {@code Intracomm} after its kind; a null {@code Intracomm} ({@code isNull()}) for {@code null}, as
     * Open MPI returns for non-members.
     */
    static Comm wrap(Communicator c) {
        if (c == null) {
            return new Intracomm((Communicator) null);
        }
        if (c.isInter()) {
            return new Intercomm(c);
        }
        Topology topology = c.topology();
        if (topology instanceof CartesianTopology) {
            return new CartComm(c);
        }
        if (topology instanceof GraphTopology || topology instanceof DistGraphTopology) {
            return new GraphComm(c);
        }
        return new Intracomm(c);
    }

    /** The request of the last {@link #iDup()}: it completed at once, so a null request. */
    public final Request getRequest() {
        return MPI.REQUEST_NULL;
    }

    /** {@code MPI_Comm_size}. */
    public final int getSize() throws MPIException {
        return core().size();
    }

    /** {@code MPI_Comm_rank}. */
    public final int getRank() throws MPIException {
        return core().rank();
    }

    /** {@code MPI_Comm_compare}: {@code MPI.IDENT}, {@code CONGRUENT}, {@code SIMILAR} or {@code UNEQUAL}. */
    public static int compare(Comm comm1, Comm comm2) throws MPIException {
        return comm1.core().compare(comm2.core());
    }

    /** {@code MPI_Comm_free}: {@code ERR_COMM} for {@code COMM_WORLD}/{@code COMM_SELF}, which stay usable. */
    public final void free() throws MPIException {
        Communicator c = core();
        try {
            c.free();
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Comm_free", e);
        }
    }

    /** True for {@code MPI_COMM_NULL} and freed communicators. */
    public final boolean isNull() {
        if (predefined != NOT_PREDEFINED) {
            return false;
        }
        return communicator == null || communicator.isFreed();
    }

    /** {@code MPI_Comm_set_info}: Weft keeps the hints but acts on none yet. */
    public final void setInfo(Info info) throws MPIException {
        Communicator c = core();
        if (info == null) {
            throw Errors.raise(c, "MPI_Comm_set_info", MpiErrors.error(ErrorClass.ERR_INFO, "the info is null"));
        }
        c.setInfo(info.entries());
    }

    /** {@code MPI_Comm_get_info}: a new info object holding the hints set on this communicator. */
    public final Info getInfo() throws MPIException {
        return Info.of(core().info());
    }

    /**
     * {@code MPI_Comm_join} (a Weft extension: Open MPI's Java bindings have none, Java has no file descriptors):
     * the intercommunicator between this process and the process of the same job at the other end of
     * {@code socket}, a connected, blocking channel that both pass at once; {@code ERR_PORT} when the other belongs
     * to another job.
     */
    public static Intercomm join(java.nio.channels.SocketChannel socket) throws MPIException {
        org.weft.core.MpiRuntime runtime = org.weft.core.RuntimeBinding.slot().activeRuntime();
        if (runtime == null) {
            throw Errors.onWorld("MPI_Comm_join", ErrorClass.ERR_OTHER, "MPI is not initialised");
        }
        try {
            return new Intercomm(org.weft.core.dyn.Joining.join(runtime, socket));
        } catch (DeviceException e) {
            throw Errors.raise(runtime.self(), "MPI_Comm_join", e);
        }
    }

    /**
     * {@code MPI_Comm_disconnect}: collective; waits until every member has called it (so that what was sent on the
     * communicator has been received: MPI asks the program to have completed it), then frees it. Used on the
     * intercommunicators of spawn, accept and connect, and on any other.
     */
    public final void disconnect() throws MPIException {
        Communicator c = core();
        try {
            Collectives.barrier(c).run();
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Comm_disconnect", e);
        }
        free();
    }

    /** {@code MPI_Comm_group}: the local group of an intercommunicator. */
    public final Group getGroup() throws MPIException {
        Communicator c = core();
        return new Group(c.group(), c.device().rank());
    }

    /** {@code MPI_Comm_test_inter}. */
    public final boolean isInter() throws MPIException {
        return core().isInter();
    }

    /**
     * {@code MPI_Intercomm_create}, called on the peer communicator (as in Open MPI): every rank of
     * {@code localComm} calls it; {@code localLeader} talks over this communicator to {@code remoteLeader}.
     */
    public final Intercomm createIntercomm(Comm localComm, int localLeader, int remoteLeader, int tag)
            throws MPIException {
        Communicator local = localComm.core();
        try {
            Communicator peer = local.rank() == localLeader ? core() : null;
            return (Intercomm) wrap(Intercomms.create(local, localLeader, peer, remoteLeader, tag));
        } catch (DeviceException e) {
            throw Errors.raise(local, "MPI_Intercomm_create", e);
        }
    }

    // ---------------------------------------------------------------- point-to-point, blocking

    /** {@code MPI_Send}: {@code buf} is a Java array or a buffer (addressed from index 0). */
    public final void send(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Send", buf, count, type, dest, tag, SendMode.STANDARD);
    }

    /** {@code MPI_Recv}: bytes past the received message are left untouched. */
    public final Status recv(Object buf, int count, Datatype type, int source, int tag) throws MPIException {
        Communicator c = core();
        return Status.ofReceived(receive(c, buf, count, type, source, tag), c, "MPI_Recv");
    }

    /**
     * The work of {@link #recv}, which the JIT keeps out of line ({@link JitHints}): {@code recv} around it is then
     * small enough to inline into the program's loop, where a {@code Status} the program drops is never made.
     */
    private static DeviceRequest receive(Communicator c, Object buf, int count, Datatype type, int source, int tag)
            throws MPIException {
        try {
            TypeDescriptor t = Datatype.descriptorOf(type);
            MemorySegment segment = BufferMapping.forReceive(buf, count, t);
            return received(buf, count, t, segment, PointToPoint.recv(c, segment, source, tag));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Recv", e);
        }
    }

    /** {@code MPI_Sendrecv}. */
    public final Status sendRecv(Object sendbuf, int sendcount, Datatype sendtype, int dest, int sendtag,
                                 Object recvbuf, int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        Communicator c = core();
        return Status.ofReceived(sendReceive(c, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                recvtype, source, recvtag), c, "MPI_Sendrecv");
    }

    /** The work of {@link #sendRecv}, out of line as {@link #receive} is. */
    private static DeviceRequest sendReceive(Communicator c, Object sendbuf, int sendcount, Datatype sendtype,
                                             int dest, int sendtag, Object recvbuf, int recvcount,
                                             Datatype recvtype, int source, int recvtag) throws MPIException {
        try {
            MemorySegment out = BufferMapping.forSend(sendbuf, sendcount, Datatype.descriptorOf(sendtype));
            return exchange(c, out, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag);
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Sendrecv", e);
        }
    }

    /** {@code MPI_Sendrecv_replace}: the message sent is a copy, so the buffer can receive at once. */
    public final Status sendRecvReplace(Object buf, int count, Datatype type, int dest, int sendtag, int source,
                                        int recvtag) throws MPIException {
        Communicator c = core();
        DeviceRequest r;
        try {
            MemorySegment view = BufferMapping.forSend(buf, count, Datatype.descriptorOf(type));
            MemorySegment out = MemorySegment.ofArray(new byte[(int) view.byteSize()]).copyFrom(view);
            r = exchange(c, out, dest, sendtag, buf, count, type, source, recvtag);
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Sendrecv_replace", e);
        }
        return Status.ofReceived(r, c, "MPI_Sendrecv_replace");
    }

    /** Receives into {@code recvbuf} while sending {@code out}: the completed receive, its data in place. */
    private static DeviceRequest exchange(Communicator c, MemorySegment out, int dest, int sendtag, Object recvbuf,
                                          int recvcount, Datatype recvtype, int source, int recvtag)
            throws MPIException {
        TypeDescriptor t = Datatype.descriptorOf(recvtype);
        MemorySegment in = BufferMapping.forReceive(recvbuf, recvcount, t);
        return received(recvbuf, recvcount, t, in, PointToPoint.sendRecv(c, out, dest, sendtag, in, source, recvtag));
    }

    /** The completed receive {@code r}, its staged data copied back to {@code buf}. */
    private static DeviceRequest received(Object buf, int count, TypeDescriptor type, MemorySegment segment,
                                          DeviceRequest r) {
        BufferMapping.finishReceive(buf, count, type, segment, r.byteCount());
        return r;
    }

    /** {@code MPI_Bsend}: through the buffer attached with {@link MPI#attachBuffer}. */
    public final void bSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Communicator c = core();
        try {
            PointToPoint.ibsend(c, BufferMapping.forSend(buf, count, Datatype.descriptorOf(type)), dest, tag);
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Bsend", e);
        }
    }

    /** {@code MPI_Ssend}: returns once the receiver matched the message. */
    public final void sSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Ssend", buf, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    /** {@code MPI_Rsend}. */
    public final void rSend(Object buf, int count, Datatype type, int dest, int tag) throws MPIException {
        blockingSend("MPI_Rsend", buf, count, type, dest, tag, SendMode.READY);
    }

    private void blockingSend(String call, Object buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        Communicator c = core();
        try {
            int error = PointToPoint.send(c, BufferMapping.forSend(buf, count, Datatype.descriptorOf(type)), dest, tag,
                    mode);
            if (error != ErrorClass.SUCCESS) {
                throw MpiErrors.error(error, "the send failed");
            }
        } catch (DeviceException e) {
            throw Errors.raise(c, call, e);
        }
    }

    // ---------------------------------------------------------------- point-to-point, nonblocking

    /** {@code MPI_Isend}: a direct buffer (or a heap buffer, whose array Weft uses in place). */
    public final Request iSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonblockingSend("MPI_Isend", buf, count, type, dest, tag, SendMode.STANDARD);
    }

    /** {@code MPI_Ibsend}: complete at once, the data having been copied to the attached buffer. */
    public final Request ibSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        Communicator c = core();
        try {
            return new Request(c, PointToPoint.ibsend(c,
                    BufferMapping.forSend(buf, count, Datatype.descriptorOf(type)), dest, tag));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Ibsend", e);
        }
    }

    /** {@code MPI_Issend}. */
    public final Request isSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonblockingSend("MPI_Issend", buf, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    /** {@code MPI_Irsend}. */
    public final Request irSend(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return nonblockingSend("MPI_Irsend", buf, count, type, dest, tag, SendMode.READY);
    }

    private Request nonblockingSend(String call, Buffer buf, int count, Datatype type, int dest, int tag,
                                    SendMode mode) throws MPIException {
        Communicator c = core();
        try {
            return new Request(c, PointToPoint.isend(c,
                    BufferMapping.forSend(buf, count, Datatype.descriptorOf(type)), dest, tag, mode));
        } catch (DeviceException e) {
            throw Errors.raise(c, call, e);
        }
    }

    /** {@code MPI_Irecv}. */
    public final Request iRecv(Buffer buf, int count, Datatype type, int source, int tag) throws MPIException {
        Communicator c = core();
        try {
            TypeDescriptor t = Datatype.descriptorOf(type);
            MemorySegment data = BufferMapping.forReceive(buf, count, t);
            return new Request(c, PointToPoint.irecv(c, data, source, tag),
                    BufferMapping.stagedReceive(buf, count, t, data));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Irecv", e);
        }
    }

    // ---------------------------------------------------------------- persistent requests

    /** {@code MPI_Send_init}. */
    public final Prequest sendInit(Buffer buf, int count, Datatype type, int dest, int tag) throws MPIException {
        return sendInit("MPI_Send_init", buf, count, type, dest, tag, SendMode.STANDARD);
    }

    /** {@code MPI_Bsend_init}. */
    public final Prequest bSendInit(Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        Communicator c = core();
        try {
            TypeDescriptor t = Datatype.descriptorOf(type);
            MemorySegment data = BufferMapping.forSend(buf, count, t);
            Arguments.checkDestination(c, dest);
            Arguments.checkSendTag(tag);
            return new Prequest(c, previous -> {
                BufferMapping.repack(buf, count, t, data);
                return PointToPoint.ibsend(c, data, dest, tag);
            });
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Bsend_init", e);
        }
    }

    /** {@code MPI_Ssend_init}. */
    public final Prequest sSendInit(Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        return sendInit("MPI_Ssend_init", buf, count, type, dest, tag, SendMode.SYNCHRONOUS);
    }

    /** {@code MPI_Rsend_init}. */
    public final Prequest rSendInit(Buffer buf, int count, Datatype type, int dest, int tag)
            throws MPIException {
        return sendInit("MPI_Rsend_init", buf, count, type, dest, tag, SendMode.READY);
    }

    private Prequest sendInit(String call, Buffer buf, int count, Datatype type, int dest, int tag, SendMode mode)
            throws MPIException {
        Communicator c = core();
        try {
            TypeDescriptor t = Datatype.descriptorOf(type);
            MemorySegment data = BufferMapping.forSend(buf, count, t);
            Arguments.checkDestination(c, dest);
            Arguments.checkSendTag(tag);
            return new Prequest(c, previous -> {
                BufferMapping.repack(buf, count, t, data);
                return PointToPoint.restartSend(c, previous, data, dest, tag, mode);
            });
        } catch (DeviceException e) {
            throw Errors.raise(c, call, e);
        }
    }

    /** {@code MPI_Recv_init}. */
    public final Prequest recvInit(Buffer buf, int count, Datatype type, int source, int tag)
            throws MPIException {
        Communicator c = core();
        try {
            TypeDescriptor t = Datatype.descriptorOf(type);
            MemorySegment data = BufferMapping.forReceive(buf, count, t);
            Arguments.checkSource(c, source);
            Arguments.checkReceiveTag(tag);
            return new Prequest(c, previous -> PointToPoint.restartRecv(c, previous, data, source, tag),
                    BufferMapping.stagedReceive(buf, count, t, data));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Recv_init", e);
        }
    }

    // ---------------------------------------------------------------- pack

    /** {@code MPI_Pack}: packs {@code incount} items to {@code outbuf} at {@code position}; the new position. */
    public final int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position)
            throws MPIException {
        Communicator c = core();
        try {
            TypeDescriptor t = Datatype.descriptorOf(type);
            long bytes = BufferMapping.checkedBytes(inbuf, incount, t);
            BufferMapping.pack(inbuf, incount, t, packedRegion(outbuf, position, bytes, "the pack buffer"));
            return position + (int) bytes;
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Pack", e);
        }
    }

    /** {@code MPI_Unpack}: unpacks {@code outcount} items from {@code inbuf} at {@code position}; new position. */
    public final int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type)
            throws MPIException {
        Communicator c = core();
        try {
            TypeDescriptor t = Datatype.descriptorOf(type);
            long bytes = BufferMapping.checkedBytes(outbuf, outcount, t);
            BufferMapping.unpack(packedRegion(inbuf, position, bytes, "the packed data"), outbuf, outcount, t);
            return position + (int) bytes;
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Unpack", e);
        }
    }

    /** The {@code bytes} of a pack buffer from {@code position}: {@code ERR_TRUNCATE} if they are not all there. */
    private static MemorySegment packedRegion(byte[] packed, int position, long bytes, String what) {
        if (packed == null) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, what + " is null");
        }
        if (position < 0 || position + bytes > packed.length) {
            throw MpiErrors.error(ErrorClass.ERR_TRUNCATE, what + " holds " + packed.length + " bytes, "
                    + bytes + " are needed from position " + position);
        }
        return MemorySegment.ofArray(packed).asSlice(position, bytes);
    }

    /** {@code MPI_Pack_size}: bytes needed to pack {@code incount} items. */
    public final int packSize(int incount, Datatype type) throws MPIException {
        Communicator c = core();
        if (incount < 0) {
            throw Errors.raise(c, "MPI_Pack_size", MpiErrors.error(ErrorClass.ERR_COUNT, "negative count"));
        }
        return incount * Datatype.checkedByteSize(type, "MPI_Pack_size");
    }

    // ---------------------------------------------------------------- probe

    /** {@code MPI_Iprobe}: the status of a matching message, or {@code null} if none has arrived. */
    public final Status iProbe(int source, int tag) throws MPIException {
        Communicator c = core();
        try {
            var found = PointToPoint.iprobe(c, source, tag);
            if (found == null) {
                c.device().progress();
                found = PointToPoint.iprobe(c, source, tag);
            }
            return found == null ? null : Status.of(found, c);
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Iprobe", e);
        }
    }

    /** {@code MPI_Probe}: waits for a matching message and returns its status. */
    public final Status probe(int source, int tag) throws MPIException {
        Communicator c = core();
        try {
            return Status.of(PointToPoint.probe(c, source, tag), c);
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Probe", e);
        }
    }

    // ---------------------------------------------------------------- attributes, topology, errors, names

    /** {@code MPI_Comm_create_keyval}: attributes of the new keyval are copied to duplicates. */
    public static int createKeyval() throws MPIException {
        try {
            return RuntimeBinding.runtime().keyvals().create();
        } catch (DeviceException e) {
            throw Errors.onWorld("MPI_Comm_create_keyval", e);
        }
    }

    /** {@code MPI_Comm_free_keyval}: {@code ERR_KEYVAL} for a predefined or unknown keyval. */
    public static void freeKeyval(int keyval) throws MPIException {
        try {
            RuntimeBinding.runtime().keyvals().free(keyval);
        } catch (DeviceException e) {
            throw Errors.onWorld("MPI_Comm_free_keyval", e);
        }
    }

    /** {@code MPI_Comm_set_attr}: the value is stored by value (serialized); {@code ERR_KEYVAL} if invalid. */
    public final void setAttr(int keyval, Object value) throws MPIException {
        Communicator c = core();
        try {
            c.runtime().keyvals().checkUser(keyval);
            c.attributes().set(keyval, value);
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Comm_set_attr", e);
        }
    }

    /**
     * {@code MPI_Comm_get_attr} for the predefined attributes ({@code MPI.TAG_UB}, {@code HOST}, {@code IO},
     * {@code WTIME_IS_GLOBAL}, {@code APPNUM}, {@code LASTUSEDCODE}, {@code UNIVERSE_SIZE}); {@code ERR_KEYVAL}
     * for other keyvals.
     */
    public final Object getAttr(int keyval) throws MPIException {
        Communicator c = core();
        return switch (keyval) {
            case MPI.TAG_UB -> Ranks.TAG_UB;
            case MPI.HOST -> Ranks.PROC_NULL;
            case MPI.IO -> Ranks.ANY_SOURCE;
            case MPI.WTIME_IS_GLOBAL -> Boolean.FALSE;
            case MPI.APPNUM -> c.device().start().appNum() < 0 ? null : c.device().start().appNum();
            case MPI.LASTUSEDCODE -> ErrorClass.ERR_LASTCODE;
            case MPI.UNIVERSE_SIZE -> c.device().start().universeSize();
            default -> userAttribute(c, keyval);
        };
    }

    /** A copy of the value set for a user keyval, or {@code null}; {@code ERR_KEYVAL} for an unknown keyval. */
    private static Object userAttribute(Communicator c, int keyval) throws MPIException {
        if (!c.runtime().keyvals().wasCreated(keyval)) {
            throw Errors.raise(c, "MPI_Comm_get_attr", MpiErrors.error(ErrorClass.ERR_KEYVAL,
                    "invalid keyval " + keyval));
        }
        try {
            return c.attributes().get(keyval);
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Comm_get_attr", e);
        }
    }

    /** {@code MPI_Comm_delete_attr}: {@code ERR_KEYVAL} for a predefined or unknown keyval. */
    public final void deleteAttr(int keyval) throws MPIException {
        Communicator c = core();
        if (!c.runtime().keyvals().wasCreated(keyval)) {
            throw Errors.raise(c, "MPI_Comm_delete_attr", MpiErrors.error(ErrorClass.ERR_KEYVAL,
                    "invalid keyval " + keyval));
        }
        c.attributes().delete(keyval);
    }

    /** {@code MPI_Topo_test}: {@code MPI.CART}, {@code GRAPH}, {@code DIST_GRAPH} or {@code MPI.UNDEFINED}. */
    public final int getTopology() throws MPIException {
        return switch (core().topology()) {
            case CartesianTopology cart -> MPI.CART;
            case GraphTopology graph -> MPI.GRAPH;
            case DistGraphTopology distGraph -> MPI.DIST_GRAPH;
            case null, default -> Ranks.UNDEFINED;
        };
    }

    /** {@code MPI_Abort}: ends every process of the job with {@code errorcode}. */
    public final void abort(int errorcode) throws MPIException {
        Communicator c = core();
        c.device().abort(errorcode, "MPI_Abort on " + c.name());
    }

    /** {@code MPI_Comm_set_errhandler}. */
    public final void setErrhandler(Errhandler errhandler) throws MPIException {
        Communicator c = core();
        if (errhandler == null) {
            throw Errors.raise(c, "MPI_Comm_set_errhandler", MpiErrors.error(ErrorClass.ERR_ARG,
                    "the error handler is null"));
        }
        c.setErrorMode(errhandler.mode());
    }

    /** {@code MPI_Comm_get_errhandler}. */
    public final Errhandler getErrhandler() throws MPIException {
        return Errhandler.of(core().errorMode());
    }

    /**
     * {@code MPI_Comm_call_errhandler}: applies this communicator's handler to {@code errorCode}. Under
     * {@code ERRORS_ARE_FATAL} the job aborts with {@code errorCode} as its exit code; under {@code ERRORS_RETURN}
     * the handler returns, and so does this call (as {@code MPI_Comm_call_errhandler}, which returns
     * {@code MPI_SUCCESS} whenever the handler returns).
     */
    public void callErrhandler(int errorCode) throws MPIException {
        Communicator c = core();
        Errors.raise(c, "MPI_Comm_call_errhandler", MpiErrors.error(errorCode,
                "error raised by the program through callErrhandler"));
    }

    /** {@code MPI_Barrier}: dissemination, or multilevel when the communicator spans several sites or hosts. */
    public final void barrier() throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Barrier", c, Collectives.barrier(c, true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Barrier", e);
        }
    }

    /** {@code MPI_Comm_set_name}: {@code ERR_ARG} for a null name. */
    public final void setName(String name) throws MPIException {
        Communicator c = core();
        if (name == null) {
            throw Errors.raise(c, "MPI_Comm_set_name", MpiErrors.error(ErrorClass.ERR_ARG, "the name is null"));
        }
        c.setName(name.length() > MPI.MAX_OBJECT_NAME ? name.substring(0, MPI.MAX_OBJECT_NAME) : name);
    }

    /** {@code MPI_Comm_get_name}: {@code MPI_COMM_WORLD} and {@code MPI_COMM_SELF} for the predefined ones. */
    public final String getName() throws MPIException {
        return core().name();
    }

    /** {@code MPI_Reduce_local}: {@code inOutBuf[i] = inBuf[i] op inOutBuf[i]}. */
    public static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op)
            throws MPIException {
        try {
            Collectives.reduceLocal(inBuf, inOutBuf, count, Datatype.descriptorOf(type),
                    Op.bind(op, type, inBuf));
        } catch (DeviceException e) {
            throw Errors.onWorld("MPI_Reduce_local", e);
        }
    }

    /** {@code MPI_Ibarrier}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iBarrier() throws MPIException {
        return start("MPI_Ibarrier", Collectives::barrier);
    }

    /** {@code MPI_Bcast}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Bcast", c, Collectives.bcast(c, buf, count, descriptor(type), root, true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Bcast", e);
        }
    }

    /** {@code MPI_Ibcast}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iBcast(java.nio.Buffer buf, int count, Datatype type, int root) throws MPIException {
        return start("MPI_Ibcast", c -> Collectives.bcast(c, buf, count, descriptor(type), root));
    }

    /** {@code MPI_Gather}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void gather(Object sendbuf, int count, Datatype type, Object recvbuf, int count2, Datatype type2, int root) throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Gather", c, Collectives.gather(c, sendbuf, count, descriptor(type), recvbuf, count2,
                    descriptor(type2), root, true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Gather", e);
        }
    }

    /** {@code MPI_Gather}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        blocking("MPI_Gather", c -> gatherInPlace(c, buf, count, type, root, true));
    }

    /** {@code MPI_Igather}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iGather(java.nio.Buffer sendbuf, int count, Datatype type, java.nio.Buffer recvbuf, int count2, Datatype type2, int root) throws MPIException {
        return start("MPI_Igather", c -> Collectives.gather(c, sendbuf, count, descriptor(type), recvbuf, count2,
                descriptor(type2), root));
    }

    /** {@code MPI_Igather}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iGather(java.nio.Buffer buf, int count, Datatype type, int root) throws MPIException {
        return start("MPI_Igather", c -> gatherInPlace(c, buf, count, type, root, false));
    }

    /** {@code MPI_Gatherv}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void gatherv(Object sendbuf, int count, Datatype type, Object recvbuf, int[] counts, int[] displs, Datatype type2, int root) throws MPIException {
        blocking("MPI_Gatherv", c -> Collectives.gatherv(c, sendbuf, count, descriptor(type), recvbuf, counts,
                displs, descriptor(type2), root));
    }

    /** {@code MPI_Gatherv}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void gatherv(Object buf, int[] counts, int[] displs, Datatype type, int root) throws MPIException {
        blocking("MPI_Gatherv", c -> Collectives.gatherv(c, null, 0, descriptor(type), buf, counts, displs,
                descriptor(type), root));
    }

    /** {@code MPI_Gatherv}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void gatherv(Object buf, int count, Datatype type, int root) throws MPIException {
        blocking("MPI_Gatherv", c -> Collectives.gatherv(c, buf, count, descriptor(type), null, null, null,
                descriptor(type), root));
    }

    /** {@code MPI_Igatherv}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iGatherv(java.nio.Buffer sendbuf, int count, Datatype type, java.nio.Buffer recvbuf, int[] counts, int[] displs, Datatype type2, int root) throws MPIException {
        return start("MPI_Igatherv", c -> Collectives.gatherv(c, sendbuf, count, descriptor(type), recvbuf, counts,
                displs, descriptor(type2), root));
    }

    /** {@code MPI_Igatherv}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iGatherv(java.nio.Buffer buf, int[] counts, int[] displs, Datatype type, int root) throws MPIException {
        return start("MPI_Igatherv", c -> Collectives.gatherv(c, null, 0, descriptor(type), buf, counts, displs,
                descriptor(type), root));
    }

    /** {@code MPI_Igatherv}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iGatherv(java.nio.Buffer buf, int count, Datatype type, int root) throws MPIException {
        return start("MPI_Igatherv", c -> Collectives.gatherv(c, buf, count, descriptor(type), null, null, null,
                descriptor(type), root));
    }

    /** {@code MPI_Scatter}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void scatter(Object sendbuf, int count, Datatype type, Object recvbuf, int count2, Datatype type2, int root) throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Scatter", c, Collectives.scatter(c, sendbuf, count, descriptor(type), recvbuf, count2,
                    descriptor(type2), root, true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Scatter", e);
        }
    }

    /** {@code MPI_Scatter}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        blocking("MPI_Scatter", c -> scatterInPlace(c, buf, count, type, root, true));
    }

    /** {@code MPI_Iscatter}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iScatter(java.nio.Buffer sendbuf, int count, Datatype type, java.nio.Buffer recvbuf, int count2, Datatype type2, int root) throws MPIException {
        return start("MPI_Iscatter", c -> Collectives.scatter(c, sendbuf, count, descriptor(type), recvbuf, count2,
                descriptor(type2), root));
    }

    /** {@code MPI_Iscatter}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iScatter(java.nio.Buffer buf, int count, Datatype type, int root) throws MPIException {
        return start("MPI_Iscatter", c -> scatterInPlace(c, buf, count, type, root, false));
    }

    /** {@code MPI_Scatterv}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void scatterv(Object sendbuf, int[] counts, int[] displs, Datatype type, Object recvbuf, int count, Datatype type2, int root) throws MPIException {
        blocking("MPI_Scatterv", c -> Collectives.scatterv(c, sendbuf, counts, displs, descriptor(type), recvbuf,
                count, descriptor(type2), root));
    }

    /** {@code MPI_Scatterv}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void scatterv(Object buf, int[] counts, int[] displs, Datatype type, int root) throws MPIException {
        blocking("MPI_Scatterv", c -> Collectives.scatterv(c, buf, counts, displs, descriptor(type), null, 0,
                descriptor(type), root));
    }

    /** {@code MPI_Scatterv}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void scatterv(Object buf, int count, Datatype type, int root) throws MPIException {
        blocking("MPI_Scatterv", c -> Collectives.scatterv(c, null, null, null, descriptor(type), buf, count,
                descriptor(type), root));
    }

    /** {@code MPI_Iscatterv}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iScatterv(java.nio.Buffer sendbuf, int[] counts, int[] displs, Datatype type, java.nio.Buffer recvbuf, int count, Datatype type2, int root) throws MPIException {
        return start("MPI_Iscatterv", c -> Collectives.scatterv(c, sendbuf, counts, displs, descriptor(type),
                recvbuf, count, descriptor(type2), root));
    }

    /** {@code MPI_Iscatterv}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iScatterv(java.nio.Buffer buf, int[] counts, int[] displs, Datatype type, int root) throws MPIException {
        return start("MPI_Iscatterv", c -> Collectives.scatterv(c, buf, counts, displs, descriptor(type), null, 0,
                descriptor(type), root));
    }

    /** {@code MPI_Iscatterv}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iScatterv(java.nio.Buffer buf, int count, Datatype type, int root) throws MPIException {
        return start("MPI_Iscatterv", c -> Collectives.scatterv(c, null, null, null, descriptor(type), buf, count,
                descriptor(type), root));
    }

    /** {@code MPI_Allgather}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void allGather(Object sendbuf, int count, Datatype type, Object recvbuf, int count2, Datatype type2) throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Allgather", c, Collectives.allGather(c, sendbuf, count, descriptor(type), recvbuf, count2,
                    descriptor(type2), true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Allgather", e);
        }
    }

    /** {@code MPI_Allgather}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void allGather(Object buf, int count, Datatype type) throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Allgather", c,
                    Collectives.allGather(c, null, count, descriptor(type), buf, count, descriptor(type), true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Allgather", e);
        }
    }

    /** {@code MPI_Iallgather}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iAllGather(java.nio.Buffer sendbuf, int count, Datatype type, java.nio.Buffer recvbuf, int count2, Datatype type2) throws MPIException {
        return start("MPI_Iallgather", c -> Collectives.allGather(c, sendbuf, count, descriptor(type), recvbuf,
                count2, descriptor(type2)));
    }

    /** {@code MPI_Iallgather}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iAllGather(java.nio.Buffer buf, int count, Datatype type) throws MPIException {
        return start("MPI_Iallgather", c -> Collectives.allGather(c, null, count, descriptor(type), buf, count,
                descriptor(type)));
    }

    /** {@code MPI_Allgatherv}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void allGatherv(Object sendbuf, int count, Datatype type, Object recvbuf, int[] counts, int[] displs, Datatype type2) throws MPIException {
        blocking("MPI_Allgatherv", c -> Collectives.allGatherv(c, sendbuf, count, descriptor(type), recvbuf, counts,
                displs, descriptor(type2)));
    }

    /** {@code MPI_Allgatherv}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void allGatherv(Object buf, int[] counts, int[] displs, Datatype type) throws MPIException {
        blocking("MPI_Allgatherv", c -> Collectives.allGatherv(c, null, 0, descriptor(type), buf, counts, displs,
                descriptor(type)));
    }

    /** {@code MPI_Iallgatherv}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iAllGatherv(java.nio.Buffer sendbuf, int count, Datatype type, java.nio.Buffer recvbuf, int[] counts, int[] displs, Datatype type2) throws MPIException {
        return start("MPI_Iallgatherv", c -> Collectives.allGatherv(c, sendbuf, count, descriptor(type), recvbuf,
                counts, displs, descriptor(type2)));
    }

    /** {@code MPI_Iallgatherv}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iAllGatherv(java.nio.Buffer buf, int[] counts, int[] displs, Datatype type) throws MPIException {
        return start("MPI_Iallgatherv", c -> Collectives.allGatherv(c, null, 0, descriptor(type), buf, counts,
                displs, descriptor(type)));
    }

    /** {@code MPI_Alltoall}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void allToAll(Object sendbuf, int count, Datatype type, Object recvbuf, int count2, Datatype type2) throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Alltoall", c, Collectives.allToAll(c, sendbuf, count, descriptor(type), recvbuf, count2,
                    descriptor(type2), true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Alltoall", e);
        }
    }

    /** {@code MPI_Ialltoall}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iAllToAll(java.nio.Buffer sendbuf, int count, Datatype type, java.nio.Buffer recvbuf, int count2, Datatype type2) throws MPIException {
        return start("MPI_Ialltoall", c -> Collectives.allToAll(c, sendbuf, count, descriptor(type), recvbuf, count2,
                descriptor(type2)));
    }

    /** {@code MPI_Alltoallv}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void allToAllv(Object sendbuf, int[] counts, int[] displs, Datatype type, Object recvbuf, int[] counts2, int[] displs2, Datatype type2) throws MPIException {
        blocking("MPI_Alltoallv", c -> Collectives.allToAllv(c, sendbuf, counts, displs, descriptor(type), recvbuf,
                counts2, displs2, descriptor(type2)));
    }

    /** {@code MPI_Ialltoallv}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iAllToAllv(java.nio.Buffer sendbuf, int[] counts, int[] displs, Datatype type, java.nio.Buffer recvbuf, int[] counts2, int[] displs2, Datatype type2) throws MPIException {
        return start("MPI_Ialltoallv", c -> Collectives.allToAllv(c, sendbuf, counts, displs, descriptor(type),
                recvbuf, counts2, displs2, descriptor(type2)));
    }

    /** {@code MPI_Alltoallw}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void allToAllw(java.nio.Buffer sendbuf, int[] counts, int[] displs, Datatype[] types, java.nio.Buffer recvbuf, int[] counts2, int[] displs2, Datatype[] types2) throws MPIException {
        blocking("MPI_Alltoallw", c -> Collectives.allToAllw(c, sendbuf, counts, displs, descriptors(types), recvbuf,
                counts2, displs2, descriptors(types2)));
    }

    /** {@code MPI_Ialltoallw}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iAllToAllw(java.nio.Buffer sendbuf, int[] counts, int[] displs, Datatype[] types, java.nio.Buffer recvbuf, int[] counts2, int[] displs2, Datatype[] types2) throws MPIException {
        return start("MPI_Ialltoallw", c -> Collectives.allToAllw(c, sendbuf, counts, displs, descriptors(types),
                recvbuf, counts2, displs2, descriptors(types2)));
    }

    /** {@code MPI_Neighbor_allgather}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void neighborAllGather(Object sendbuf, int count, Datatype type, Object recvbuf, int count2, Datatype type2) throws MPIException {
        blocking("MPI_Neighbor_allgather", c -> NeighborCollectives.allGather(c, sendbuf, count, descriptor(type),
                recvbuf, count2, descriptor(type2)));
    }

    /** {@code MPI_Ineighbor_allgather}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iNeighborAllGather(java.nio.Buffer sendbuf, int count, Datatype type, java.nio.Buffer recvbuf, int count2, Datatype type2) throws MPIException {
        return start("MPI_Ineighbor_allgather", c -> NeighborCollectives.allGather(c, sendbuf, count,
                descriptor(type), recvbuf, count2, descriptor(type2)));
    }

    /** {@code MPI_Neighbor_allgatherv}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void neighborAllGatherv(Object sendbuf, int count, Datatype type, Object recvbuf, int[] counts, int[] displs, Datatype type2) throws MPIException {
        blocking("MPI_Neighbor_allgatherv", c -> NeighborCollectives.allGatherv(c, sendbuf, count, descriptor(type),
                recvbuf, counts, displs, descriptor(type2)));
    }

    /** {@code MPI_Ineighbor_allgatherv}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iNeighborAllGatherv(java.nio.Buffer sendbuf, int count, Datatype type, java.nio.Buffer recvbuf, int[] counts, int[] displs, Datatype type2) throws MPIException {
        return start("MPI_Ineighbor_allgatherv", c -> NeighborCollectives.allGatherv(c, sendbuf, count,
                descriptor(type), recvbuf, counts, displs, descriptor(type2)));
    }

    /** {@code MPI_Neighbor_alltoall}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void neighborAllToAll(Object sendbuf, int count, Datatype type, Object recvbuf, int count2, Datatype type2) throws MPIException {
        blocking("MPI_Neighbor_alltoall", c -> NeighborCollectives.allToAll(c, sendbuf, count, descriptor(type),
                recvbuf, count2, descriptor(type2)));
    }

    /** {@code MPI_Ineighbor_alltoall}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iNeighborAllToAll(java.nio.Buffer sendbuf, int count, Datatype type, java.nio.Buffer recvbuf, int count2, Datatype type2) throws MPIException {
        return start("MPI_Ineighbor_alltoall", c -> NeighborCollectives.allToAll(c, sendbuf, count, descriptor(type),
                recvbuf, count2, descriptor(type2)));
    }

    /** {@code MPI_Neighbor_alltoallv}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void neighborAllToAllv(Object sendbuf, int[] counts, int[] displs, Datatype type, Object recvbuf, int[] counts2, int[] displs2, Datatype type2) throws MPIException {
        blocking("MPI_Neighbor_alltoallv", c -> NeighborCollectives.allToAllv(c, sendbuf, counts, displs,
                descriptor(type), recvbuf, counts2, displs2, descriptor(type2)));
    }

    /** {@code MPI_Ineighbor_alltoallv}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iNeighborAllToAllv(java.nio.Buffer sendbuf, int[] counts, int[] displs, Datatype type, java.nio.Buffer recvbuf, int[] counts2, int[] displs2, Datatype type2) throws MPIException {
        return start("MPI_Ineighbor_alltoallv", c -> NeighborCollectives.allToAllv(c, sendbuf, counts, displs,
                descriptor(type), recvbuf, counts2, displs2, descriptor(type2)));
    }

    /** {@code MPI_Reduce}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root) throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Reduce", c,
                    Collectives.reduce(c, sendbuf, recvbuf, count, descriptor(type), Op.bind(op, type, sendbuf),
                    root, true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Reduce", e);
        }
    }

    /** {@code MPI_Reduce}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Reduce", c, reduceInPlace(c, buf, count, type, op, root, true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Reduce", e);
        }
    }

    /** {@code MPI_Ireduce}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iReduce(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op, int root) throws MPIException {
        return start("MPI_Ireduce", c -> Collectives.reduce(c, sendbuf, recvbuf, count, descriptor(type), Op.bind(op,
                type, sendbuf), root));
    }

    /** {@code MPI_Ireduce}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iReduce(java.nio.Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        return start("MPI_Ireduce", c -> reduceInPlace(c, buf, count, type, op, root, false));
    }

    /** {@code MPI_Allreduce}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Allreduce", c, Collectives.allReduce(c, sendbuf, recvbuf, count, descriptor(type),
                    Op.bind(op, type, sendbuf), true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Allreduce", e);
        }
    }

    /** {@code MPI_Allreduce}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Allreduce", c,
                    Collectives.allReduce(c, null, buf, count, descriptor(type), Op.bind(op, type, buf), true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Allreduce", e);
        }
    }

    /** {@code MPI_Iallreduce}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iAllReduce(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return start("MPI_Iallreduce", c -> Collectives.allReduce(c, sendbuf, recvbuf, count, descriptor(type),
                Op.bind(op, type, sendbuf)));
    }

    /** {@code MPI_Iallreduce}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iAllReduce(java.nio.Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return start("MPI_Iallreduce", c -> Collectives.allReduce(c, null, buf, count, descriptor(type), Op.bind(op,
                type, buf)));
    }

    /** {@code MPI_Reduce_scatter}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void reduceScatter(Object sendbuf, Object recvbuf, int[] counts, Datatype type, Op op) throws MPIException {
        blocking("MPI_Reduce_scatter", c -> Collectives.reduceScatter(c, sendbuf, recvbuf, counts, descriptor(type),
                Op.bind(op, type, sendbuf)));
    }

    /** {@code MPI_Reduce_scatter}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        blocking("MPI_Reduce_scatter", c -> Collectives.reduceScatter(c, null, buf, counts, descriptor(type),
                Op.bind(op, type, buf)));
    }

    /** {@code MPI_Ireduce_scatter}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iReduceScatter(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int[] counts, Datatype type, Op op) throws MPIException {
        return start("MPI_Ireduce_scatter", c -> Collectives.reduceScatter(c, sendbuf, recvbuf, counts,
                descriptor(type), Op.bind(op, type, sendbuf)));
    }

    /** {@code MPI_Ireduce_scatter}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iReduceScatter(java.nio.Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        return start("MPI_Ireduce_scatter", c -> Collectives.reduceScatter(c, null, buf, counts, descriptor(type),
                Op.bind(op, type, buf)));
    }

    /** {@code MPI_Reduce_scatter_block}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void reduceScatterBlock(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        keptReduceScatterBlock(sendbuf, recvbuf, count, type, op);
    }

    /** {@code MPI_Reduce_scatter_block}: see {@code org.weft.core.coll.Algorithms} for the algorithm. */
    public final void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        keptReduceScatterBlock(null, buf, count, type, op);
    }

    /**
     * A blocking reduce-scatter of equal blocks ({@code sendbuf == null}: in place) that may run the schedule this
     * communicator kept for the same arguments, without {@code blocking}'s per-call lambda.
     */
    private void keptReduceScatterBlock(Object sendbuf, Object recvbuf, int count, Datatype type, Op op)
            throws MPIException {
        Communicator c = core();
        try {
            runBlocking("MPI_Reduce_scatter_block", c,
                    Collectives.reduceScatterBlock(c, sendbuf, recvbuf, count, descriptor(type),
                    Op.bind(op, type, sendbuf != null ? sendbuf : recvbuf), true));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Reduce_scatter_block", e);
        }
    }

    /** {@code MPI_Ireduce_scatter_block}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iReduceScatterBlock(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return start("MPI_Ireduce_scatter_block", c -> Collectives.reduceScatterBlock(c, sendbuf, recvbuf, count,
                descriptor(type), Op.bind(op, type, sendbuf)));
    }

    /** {@code MPI_Ireduce_scatter_block}: the collective runs as a schedule that the request's waits and tests advance. */
    public final Request iReduceScatterBlock(java.nio.Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return start("MPI_Ireduce_scatter_block", c -> Collectives.reduceScatterBlock(c, null, buf, count,
                descriptor(type), Op.bind(op, type, buf)));
    }

    /** The schedule of one collective call, built from the core communicator (may throw its argument errors). */
    @FunctionalInterface
    interface CollectivePlan {
        Schedule plan(Communicator c);
    }

    /** Runs a blocking collective; errors go through the communicator's error handler. */
    final void blocking(String call, CollectivePlan plan) throws MPIException {
        guarded(call, c -> {
            runBlocking(call, c, plan.plan(c));
            return null;
        });
    }

    /**
     * Runs {@code schedule} on {@code c} to its end. The collectives that keep their schedules (those of
     * {@code ReusableSchedules.Kind}) call this straight, without {@link #blocking}'s lambdas, so that a call that
     * runs a kept schedule allocates nothing. {@code call} names the MPI call (Flight Recorder's Collective event).
     */
    static void runBlocking(String call, Communicator c, Schedule schedule) {
        Collective event = Jfr.ON ? WeftEvents.collectiveBegins(call, c.name(), c.rank(), c.size()) : null;
        try {
            schedule.run(c.collectives());
        } finally {
            if (Jfr.ON) {
                WeftEvents.ends(event);
            }
            c.collectives().finished(schedule); // a kept schedule may serve the next call with these arguments
        }
    }

    /** Starts a nonblocking collective and returns its request; argument errors go through the error handler. */
    final Request start(String call, CollectivePlan plan) throws MPIException {
        return guarded(call, c -> new CollectiveRequest(c, plan.plan(c)));
    }

    /**
     * {@code MPI_Gather} with {@code MPI_IN_PLACE} at the root: {@code buf} is the root's receive buffer;
     * {@code keep}: a blocking call, which goes the way the other form's blocking call goes (a root in place may meet
     * members calling the other form).
     */
    private Schedule gatherInPlace(Communicator c, Object buf, int count, Datatype type, int root, boolean keep) {
        TypeDescriptor t = Datatype.descriptorOf(type);
        return c.rank() == root && !c.isInter() ? Collectives.gather(c, null, count, t, buf, count, t, root, keep)
                : Collectives.gather(c, buf, count, t, buf, count, t, root, keep);
    }

    /** {@code MPI_Scatter} with {@code MPI_IN_PLACE} at the root: {@code buf} is the root's send buffer. */
    private Schedule scatterInPlace(Communicator c, Object buf, int count, Datatype type, int root, boolean keep) {
        TypeDescriptor t = Datatype.descriptorOf(type);
        return c.rank() == root && !c.isInter() ? Collectives.scatter(c, buf, count, t, null, count, t, root, keep)
                : Collectives.scatter(c, buf, count, t, buf, count, t, root, keep);
    }

    /** {@code MPI_Reduce} with {@code MPI_IN_PLACE} at the root: {@code buf} is every rank's input, the root's output. */
    private Schedule reduceInPlace(Communicator c, Object buf, int count, Datatype type, Op op, int root,
                                   boolean keep) {
        TypeDescriptor t = Datatype.descriptorOf(type);
        Reduction r = Op.bind(op, type, buf);
        return c.rank() == root ? Collectives.reduce(c, null, buf, count, t, r, root, keep)
                : Collectives.reduce(c, buf, null, count, t, r, root, keep);
    }

    /** The core descriptor of {@code type} (null stays null, for the argument checks). */
    static TypeDescriptor descriptor(Datatype type) {
        return Datatype.descriptorOf(type);
    }

    private static TypeDescriptor[] descriptors(Datatype[] types) {
        if (types == null) {
            return null;
        }
        TypeDescriptor[] descriptors = new TypeDescriptor[types.length];
        for (int i = 0; i < types.length; i++) {
            descriptors[i] = Datatype.descriptorOf(types[i]);
        }
        return descriptors;
    }

    // GENERATED-STUBS
}
