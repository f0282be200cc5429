package org.weft.core.p2p;

import java.lang.foreign.MemorySegment;

import org.weft.adi.DeviceMessage;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ProbeResult;
import org.weft.adi.Ranks;
import org.weft.adi.SendMode;
import org.weft.core.comm.Communicator;

/**
 * Point-to-point operations of a communicator over the device: checks the arguments, translates communicator
 * ranks to world ranks and routes {@code PROC_NULL} to requests that are complete at once. Buffers arrive here
 * already mapped to segments ({@link org.weft.core.datatype.BufferMapping}). Stateless.
 */
public final class PointToPoint {
    private PointToPoint() {
    }

    /** Starts a send in {@code mode} ({@code MPI_Isend}, {@code MPI_Issend}, {@code MPI_Irsend}). */
    public static DeviceRequest isend(Communicator comm, MemorySegment data, int dest, int tag, SendMode mode) {
        return restartSend(comm, null, data, dest, tag, mode);
    }

    /** {@code MPI_Start} of a persistent send; the device may reuse {@code previous}, its last request. */
    public static DeviceRequest restartSend(Communicator comm, DeviceRequest previous, MemorySegment data, int dest,
                                            int tag, SendMode mode) {
        checkSend(comm, dest, tag);
        if (dest == Ranks.PROC_NULL) {
            return DeviceRequest.completed(Ranks.PROC_NULL, Ranks.ANY_TAG);
        }
        return comm.device().restartSend(previous, data, comm.toWorld(dest), tag, comm.context(), mode);
    }

    /** {@code MPI_Start} of a persistent receive; the device may reuse {@code previous}, its last request. */
    public static DeviceRequest restartRecv(Communicator comm, DeviceRequest previous, MemorySegment buffer,
                                            int source, int tag) {
        checkReceive(comm, source, tag);
        if (source == Ranks.PROC_NULL) {
            return DeviceRequest.completed(Ranks.PROC_NULL, Ranks.ANY_TAG);
        }
        return comm.device().restartRecv(previous, buffer, comm.toWorld(source), tag, comm.context());
    }

    /** A blocking send in {@code mode} ({@code MPI_Send}, ...); returns the send's error class. */
    public static int send(Communicator comm, MemorySegment data, int dest, int tag, SendMode mode) {
        checkSend(comm, dest, tag);
        if (dest == Ranks.PROC_NULL) {
            return org.weft.adi.ErrorClass.SUCCESS;
        }
        return comm.device().send(data, comm.toWorld(dest), tag, comm.context(), mode);
    }

    /**
     * {@code MPI_Recv}: the completed request, which the device may reuse — read its status before this thread's
     * next blocking receive.
     */
    public static DeviceRequest recv(Communicator comm, MemorySegment buffer, int source, int tag) {
        checkReceive(comm, source, tag);
        if (source == Ranks.PROC_NULL) {
            return DeviceRequest.completed(Ranks.PROC_NULL, Ranks.ANY_TAG);
        }
        return comm.device().recv(buffer, comm.toWorld(source), tag, comm.context());
    }

    /**
     * {@code MPI_Sendrecv}: the completed receive, which the device may reuse (as {@link #recv}'s); a failed send is
     * raised.
     */
    public static DeviceRequest sendRecv(Communicator comm, MemorySegment data, int dest, int sendTag,
                                         MemorySegment buffer, int source, int recvTag) {
        checkSend(comm, dest, sendTag);
        checkReceive(comm, source, recvTag);
        return comm.device().sendRecv(data, comm.toWorld(dest), sendTag, buffer, comm.toWorld(source), recvTag,
                comm.context());
    }

    /**
     * {@code MPI_Ibsend}: copies the data into the attached buffer and sends from there; the returned request
     * is complete at once, as the user's buffer is free again.
     */
    public static DeviceRequest ibsend(Communicator comm, MemorySegment data, int dest, int tag) {
        checkSend(comm, dest, tag);
        if (dest != Ranks.PROC_NULL) {
            comm.runtime().bsendBuffer().send(data, comm.toWorld(dest), tag, comm.context());
        }
        return DeviceRequest.completed(Ranks.PROC_NULL, Ranks.ANY_TAG);
    }

    /** {@code MPI_Irecv} into {@code buffer}. */
    public static DeviceRequest irecv(Communicator comm, MemorySegment buffer, int source, int tag) {
        return restartRecv(comm, null, buffer, source, tag);
    }

    /** {@code MPI_Iprobe}: the envelope of a matching message, or {@code null}. Source is a world rank. */
    public static ProbeResult iprobe(Communicator comm, int source, int tag) {
        checkReceive(comm, source, tag);
        if (source == Ranks.PROC_NULL) {
            return new ProbeResult(Ranks.PROC_NULL, Ranks.ANY_TAG, 0);
        }
        return comm.device().iprobe(comm.toWorld(source), tag, comm.context());
    }

    /** {@code MPI_Probe}: waits until {@link #iprobe} sees a message. */
    public static ProbeResult probe(Communicator comm, int source, int tag) {
        ProbeResult found = iprobe(comm, source, tag);
        if (found != null) {
            return found;
        }
        ProbeResult[] holder = new ProbeResult[1];
        comm.device().await(() -> (holder[0] = iprobe(comm, source, tag)) != null);
        return holder[0];
    }

    /** {@code MPI_Improbe}: a message taken out of matching, or {@code null}; the caller handles PROC_NULL. */
    public static DeviceMessage improbe(Communicator comm, int source, int tag) {
        checkReceive(comm, source, tag);
        return comm.device().improbe(comm.toWorld(source), tag, comm.context());
    }

    /** {@code MPI_Mprobe}: waits until {@link #improbe} returns a message. */
    public static DeviceMessage mprobe(Communicator comm, int source, int tag) {
        DeviceMessage found = improbe(comm, source, tag);
        if (found != null) {
            return found;
        }
        DeviceMessage[] holder = new DeviceMessage[1];
        comm.device().await(() -> (holder[0] = improbe(comm, source, tag)) != null);
        return holder[0];
    }

    private static void checkSend(Communicator comm, int dest, int tag) {
        Arguments.checkDestination(comm, dest);
        Arguments.checkSendTag(tag);
    }

    private static void checkReceive(Communicator comm, int source, int tag) {
        Arguments.checkSource(comm, source);
        Arguments.checkReceiveTag(tag);
    }
}
