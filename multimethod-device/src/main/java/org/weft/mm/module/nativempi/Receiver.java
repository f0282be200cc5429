package org.weft.mm.module.nativempi;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;
import org.weft.mm.spi.MalformedRsrException;
import org.weft.mm.spi.RsrSink;

/**
 * Takes RSRs off the module's communicator: {@code MPI_Improbe} from any source with the RSR tag, then
 * {@code MPI_Mrecv} of exactly the probed size into one reusable native buffer, and hands the body to the sink as a
 * view of that buffer (no copy on the Java side).
 *
 * <p>Why probe-and-receive rather than a ring of pre-posted {@code MPI_Irecv}s: RSRs range from a few bytes to
 * {@code nativempi_max_rsr}, so pre-posted receives would each need the largest size (or a second protocol for
 * large ones), and the empty poll costs one call either way (Improbe vs Testsome). Not yet measured against a
 * pre-posted ring: that comparison is open (see the package docs).
 *
 * <p>One poller at a time (the module holds a token), so RSRs of one sender are delivered in the order MPI matched
 * them, which is the order they were sent (MPI's non-overtaking rule on one communicator and tag).
 */
final class Receiver {
    private final LibMpi mpi;
    private final long comm;
    private final RsrSink sink;
    private final Consumer<String> log;
    private final Arena scratchArena = Arena.ofShared();
    private final MemorySegment flag;
    private final MemorySegment message;
    private final MemorySegment status;
    private final MemorySegment count;
    private Arena bufferArena;
    private MemorySegment buffer;
    private ByteBuffer body;

    Receiver(LibMpi mpi, long comm, RsrSink sink, long initialBytes, Consumer<String> log) {
        this.mpi = mpi;
        this.comm = comm;
        this.sink = sink;
        this.log = log;
        this.flag = scratchArena.allocate(JAVA_INT);
        this.message = scratchArena.allocate(mpi.flavour().handleLayout());
        this.status = scratchArena.allocate(mpi.flavour().statusSize(), 8);
        this.count = scratchArena.allocate(JAVA_INT);
        allocate(initialBytes);
    }

    /** Receives and delivers up to {@code budget} RSRs; returns how many. The caller holds the poll token. */
    int poll(int budget) {
        int delivered = 0;
        while (delivered < budget) {
            int rc = mpi.improbe(RsrPrefix.TAG, comm, flag, message, status);
            if (rc != MpiFlavour.SUCCESS) {
                throw new MpiCallException("MPI_Improbe failed: " + mpi.errorString(rc));
            }
            if (flag.get(JAVA_INT, 0) == 0) {
                break;
            }
            mpi.check("MPI_Get_count", mpi.getCount(status, count));
            int length = count.get(JAVA_INT, 0);
            if (length > buffer.byteSize()) {
                bufferArena.close();
                allocate(Long.highestOneBit(length - 1) << 1);
            }
            mpi.check("MPI_Mrecv", mpi.mrecv(buffer, length, message, status));
            deliver(length);
            delivered++;
        }
        return delivered;
    }

    private void deliver(int length) {
        if (length < RsrPrefix.LENGTH) {
            log.accept("dropping a " + length + "-byte message shorter than an RSR prefix");
            return;
        }
        int source = RsrPrefix.source(buffer);
        int endpoint = RsrPrefix.endpoint(buffer);
        int handler = RsrPrefix.handler(buffer);
        body.limit(length).position(RsrPrefix.LENGTH);
        try {
            sink.deliver(source, endpoint, handler, body);
        } catch (MalformedRsrException e) {
            // MPI has no link to close: the RSR is dropped, the job goes on.
            log.accept("dropping a malformed RSR from rank " + source + ": " + e.getMessage());
        }
    }

    /** Frees the native memory; only when no poll runs and libmpi holds no receive into it. */
    void release() {
        bufferArena.close();
        scratchArena.close();
    }

    private void allocate(long bytes) {
        bufferArena = Arena.ofShared();
        buffer = bufferArena.allocate(Math.max(bytes, 4096), 64);
        body = buffer.asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    }
}
