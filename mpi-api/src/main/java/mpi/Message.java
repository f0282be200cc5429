package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

import org.weft.adi.DeviceException;
import org.weft.adi.DeviceMessage;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.p2p.Arguments;
import org.weft.core.p2p.PointToPoint;

/**
 * A message taken out of matching by a matched probe ({@code MPI_Message}). A new message is null; it holds a
 * message after {@link #mProbe}/{@link #imProbe} and is null again after {@link #mRecv}/{@link #imRecv}.
 */
public final class Message {
    private DeviceMessage message;
    private Communicator comm;
    private boolean noProc;

    /** {@code MPI_MESSAGE_NULL}. */
    public Message() {
    }

    public boolean isNull() {
        return message == null && !noProc;
    }

    /** True for {@code MPI_MESSAGE_NO_PROC}, the message of a probe on {@code PROC_NULL}. */
    public boolean isNoProc() {
        return noProc;
    }

    /** {@code MPI_Mprobe}: waits for a matching message and takes it out of matching. */
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        Communicator c = comm.core();
        try {
            if (source == Ranks.PROC_NULL) {
                return noProc(c, tag);
            }
            return hold(c, PointToPoint.mprobe(c, source, tag));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Mprobe", e);
        }
    }

    /** {@code MPI_Improbe}: as {@link #mProbe} if a message is there, else {@code null}. */
    public Status imProbe(int source, int tag, Comm comm) throws MPIException {
        Communicator c = comm.core();
        try {
            if (source == Ranks.PROC_NULL) {
                return noProc(c, tag);
            }
            DeviceMessage found = PointToPoint.improbe(c, source, tag);
            return found == null ? null : hold(c, found);
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Improbe", e);
        }
    }

    private Status noProc(Communicator c, int tag) {
        Arguments.checkReceiveTag(tag);
        this.comm = c;
        this.noProc = true;
        this.message = null;
        return new Status(Ranks.PROC_NULL, Ranks.ANY_TAG, ErrorClass.SUCCESS, false, 0);
    }

    private Status hold(Communicator c, DeviceMessage found) {
        this.comm = c;
        this.message = found;
        this.noProc = false;
        return new Status(c.fromWorld(found.source()), found.tag(), ErrorClass.SUCCESS, false, found.byteCount());
    }

    /** {@code MPI_Mrecv}: receives the probed message into {@code buf}; the message becomes null. */
    public Status mRecv(Object buf, int count, Datatype type) throws MPIException {
        Communicator c = checkHeld("MPI_Mrecv");
        DeviceRequest r;
        try {
            TypeDescriptor t = Datatype.descriptorOf(type);
            MemorySegment segment = BufferMapping.forReceive(buf, count, t);
            r = start(segment);
            c.device().await(r);
            BufferMapping.finishReceive(buf, count, t, segment, r.byteCount());
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Mrecv", e);
        }
        return Status.ofReceived(r, c, "MPI_Mrecv");
    }

    /** {@code MPI_Imrecv}: starts receiving the probed message; the message becomes null. */
    public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
        Communicator c = checkHeld("MPI_Imrecv");
        try {
            TypeDescriptor t = Datatype.descriptorOf(type);
            MemorySegment segment = BufferMapping.forReceive(buf, count, t);
            return new Request(c, start(segment), BufferMapping.stagedReceive(buf, count, t, segment));
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Imrecv", e);
        }
    }

    private Communicator checkHeld(String call) throws MPIException {
        if (isNull()) {
            throw Errors.onWorld(call, ErrorClass.ERR_REQUEST, "the message is null (call mProbe first)");
        }
        return comm;
    }

    private DeviceRequest start(MemorySegment segment) {
        if (noProc) {
            noProc = false;
            return DeviceRequest.completed(Ranks.PROC_NULL, Ranks.ANY_TAG);
        }
        DeviceMessage m = message;
        message = null;
        return comm.device().imrecv(m, segment);
    }
}
