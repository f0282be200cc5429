package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.SendMode;
import org.weft.core.comm.Communicator;
import org.weft.core.error.MpiErrors;

/**
 * The blocking point-to-point steps of collective algorithms: in the collective context, to and from
 * communicator ranks, failing with the message's error class (a truncation means the ranks disagreed on the
 * count or type of the collective).
 */
final class Transfers {
    private Transfers() {
    }

    /** Starts sending {@code data} to communicator rank {@code to}. */
    static DeviceRequest startSend(Communicator comm, MemorySegment data, int to, int tag) {
        return comm.device().isend(data, comm.toWorld(to), tag, comm.collectiveContext(), SendMode.STANDARD);
    }

    /** Sends {@code data} to communicator rank {@code to} and waits until the buffer is free again. */
    static void send(Communicator comm, MemorySegment data, int to, int tag) {
        finish(comm, startSend(comm, data, to, tag), "send to", to);
    }

    /** Receives into {@code buffer} from communicator rank {@code from}; the whole buffer must arrive. */
    static void receive(Communicator comm, MemorySegment buffer, int from, int tag) {
        DeviceRequest r = comm.device().irecv(buffer, comm.toWorld(from), tag, comm.collectiveContext());
        finish(comm, r, "receive from", from);
        if (r.byteCount() != buffer.byteSize()) {
            throw MpiErrors.error(ErrorClass.ERR_TRUNCATE, "collective: rank " + from + " sent " + r.byteCount()
                    + " bytes where " + buffer.byteSize() + " were expected (do all ranks pass the same count and"
                    + " type?)");
        }
    }

    /** Waits for {@code request} and raises its error. */
    static void finish(Communicator comm, DeviceRequest request, String what, int peer) {
        comm.device().await(request);
        if (request.error() != ErrorClass.SUCCESS) {
            throw MpiErrors.error(request.error(), "collective: " + what + " rank " + peer + " failed (do all"
                    + " ranks pass the same count and type?)");
        }
    }

    /** A private buffer of {@code bytes} bytes for partial results. */
    static MemorySegment scratch(long bytes) {
        return MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
    }
}
