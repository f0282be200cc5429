package org.weft.tests.harness;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.weft.adi.Device;
import org.weft.adi.DeviceMessage;
import org.weft.adi.DeviceReport;
import org.weft.adi.DeviceRequest;
import org.weft.adi.Locality;
import org.weft.adi.ProbeResult;
import org.weft.adi.SendMode;
import org.weft.adi.SharedMemory;

/**
 * A real device with a counter in front: it counts the messages this rank sends to ranks of another site and of its
 * own, and passes every call on unchanged (the transport and the shared memory for collectives stay real). For tests
 * that show how collectives use slow links and each site's fast path.
 */
public final class MessageCountingDevice implements Device {
    private final Device device;
    private final AtomicLong crossSite = new AtomicLong();
    private final AtomicLong withinSite = new AtomicLong();

    public MessageCountingDevice(Device device) {
        this.device = device;
    }

    /** Messages sent so far to ranks of another site. */
    public long crossSiteMessages() {
        return crossSite.get();
    }

    /** Messages sent so far to other ranks of this rank's site. */
    public long withinSiteMessages() {
        return withinSite.get();
    }

    private void count(int dest) {
        if (!device.locality(dest).sameSite(device.locality(device.rank()))) {
            crossSite.incrementAndGet();
        } else if (dest != device.rank()) {
            withinSite.incrementAndGet();
        }
    }

    @Override
    public SharedMemory sharedMemory() {
        return device.sharedMemory();
    }

    @Override
    public boolean twoLevelCollectives() {
        return device.twoLevelCollectives();
    }

    @Override
    public DeviceRequest isend(MemorySegment data, int dest, int tag, int context, SendMode mode) {
        count(dest);
        return device.isend(data, dest, tag, context, mode);
    }

    @Override
    public int send(MemorySegment data, int dest, int tag, int context, SendMode mode) {
        count(dest);
        return device.send(data, dest, tag, context, mode);
    }

    @Override
    public DeviceRequest restartSend(DeviceRequest previous, MemorySegment data, int dest, int tag, int context,
                                     SendMode mode) {
        count(dest);
        return device.restartSend(previous, data, dest, tag, context, mode);
    }

    @Override
    public int rank() {
        return device.rank();
    }

    @Override
    public int size() {
        return device.size();
    }

    @Override
    public String processorName() {
        return device.processorName();
    }

    @Override
    public Locality locality(int worldRank) {
        return device.locality(worldRank);
    }

    @Override
    public DeviceRequest irecv(MemorySegment buffer, int source, int tag, int context) {
        return device.irecv(buffer, source, tag, context);
    }

    @Override
    public DeviceRequest recv(MemorySegment buffer, int source, int tag, int context) {
        return device.recv(buffer, source, tag, context);
    }

    @Override
    public DeviceRequest restartRecv(DeviceRequest previous, MemorySegment buffer, int source, int tag,
                                     int context) {
        return device.restartRecv(previous, buffer, source, tag, context);
    }

    @Override
    public ProbeResult iprobe(int source, int tag, int context) {
        return device.iprobe(source, tag, context);
    }

    @Override
    public DeviceMessage improbe(int source, int tag, int context) {
        return device.improbe(source, tag, context);
    }

    @Override
    public DeviceRequest imrecv(DeviceMessage message, MemorySegment buffer) {
        return device.imrecv(message, buffer);
    }

    @Override
    public boolean cancel(DeviceRequest request) {
        return device.cancel(request);
    }

    @Override
    public int progress() {
        return device.progress();
    }

    @Override
    public void await(DeviceRequest request) {
        device.await(request);
    }

    @Override
    public void await(BooleanSupplier done) {
        device.await(done);
    }

    @Override
    public DeviceReport report() {
        return device.report();
    }

    @Override
    public void abort(int code, String message) {
        device.abort(code, message);
    }

    @Override
    public void finish() {
        device.finish();
    }
}
