package org.weft.core.p2p;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.weft.adi.Device;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.SendMode;
import org.weft.core.error.MpiErrors;

/**
 * The buffer of buffered sends ({@code MPI_Buffer_attach}/{@code MPI_Buffer_detach}). Each buffered send takes
 * its message size plus {@link #OVERHEAD} bytes of the attached array (first fit), copies the message there and
 * sends it from there as a standard send; the space is reclaimed when that send completes. A send that does
 * not fit gets {@code ERR_BUFFER}, as MPI requires. Thread-safe (one lock; buffered sends are not a hot path).
 */
public final class BsendBuffer {
    /** {@code MPI_BSEND_OVERHEAD} (Open MPI's value). */
    public static final int OVERHEAD = 128;

    private final Device device;
    private byte[] attached;
    /** Live allocations, ordered by offset. */
    private final List<Allocation> live = new ArrayList<>();

    private record Allocation(int offset, int length, DeviceRequest send) {
    }

    public BsendBuffer(Device device) {
        this.device = device;
    }

    /** {@code MPI_Buffer_attach}: {@code ERR_BUFFER} if a buffer is already attached or {@code buffer} is null. */
    public synchronized void attach(byte[] buffer) {
        if (buffer == null) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "cannot attach a null buffer");
        }
        if (attached != null) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "a buffer is already attached (detach it first)");
        }
        attached = buffer;
    }

    /** {@code MPI_Buffer_detach}: waits until every buffered send left, returns the array (null if none). */
    public synchronized byte[] detach() {
        drain();
        byte[] buffer = attached;
        attached = null;
        return buffer;
    }

    /** Waits until every buffered send completed. */
    public synchronized void drain() {
        for (Allocation a : live) {
            device.await(a.send());
        }
        live.clear();
    }

    /** Copies {@code data} into the attached buffer and starts sending it. */
    public synchronized void send(MemorySegment data, int worldDest, int tag, int context) {
        int length = Math.toIntExact(data.byteSize() + OVERHEAD);
        int offset = reserve(length);
        MemorySegment copy = MemorySegment.ofArray(attached).asSlice(offset + OVERHEAD, data.byteSize());
        copy.copyFrom(data);
        DeviceRequest send = device.isend(copy, worldDest, tag, context, SendMode.STANDARD);
        insert(new Allocation(offset, length, send));
    }

    /** Bytes in use by pending buffered sends (for tests and diagnostics). */
    public synchronized int bytesInUse() {
        reclaim();
        return live.stream().mapToInt(Allocation::length).sum();
    }

    private int reserve(int length) {
        if (attached == null) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER,
                    "buffered send without an attached buffer (call MPI.attachBuffer)");
        }
        reclaim();
        int start = 0;
        for (Allocation a : live) {
            if (a.offset() - start >= length) {
                return start;
            }
            start = a.offset() + a.length();
        }
        if (attached.length - start >= length) {
            return start;
        }
        throw MpiErrors.error(ErrorClass.ERR_BUFFER, "the attached buffer (" + attached.length
                + " bytes) has no room for a buffered send of " + (length - OVERHEAD) + " bytes + MPI.BSEND_OVERHEAD "
                + OVERHEAD + " (" + (attached.length - bytesInUseUnlocked()) + " bytes free)");
    }

    private int bytesInUseUnlocked() {
        return live.stream().mapToInt(Allocation::length).sum();
    }

    private void reclaim() {
        live.removeIf(a -> a.send().isComplete());
    }

    private void insert(Allocation allocation) {
        int i = 0;
        while (i < live.size() && live.get(i).offset() < allocation.offset()) {
            i++;
        }
        live.add(i, allocation);
    }
}
