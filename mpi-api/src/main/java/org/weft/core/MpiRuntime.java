package org.weft.core;

import org.weft.adi.Device;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.attr.AttributeTables;
import org.weft.core.attr.Keyvals;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.ContextIds;
import org.weft.core.comm.ProcessGroup;
import org.weft.core.error.MpiErrors;
import org.weft.core.p2p.BsendBuffer;

/**
 * Everything one MPI process owns between {@code MPI_Init} and {@code MPI_Finalize}: the device, the predefined
 * communicators, the pool of free context ids, the attribute keyvals (of communicators and of datatypes) and datatype attributes, the buffered-send buffer, the thread level and the finalized flag.
 * One instance per rank; several can live in one JVM (see {@link RuntimeBinding}).
 */
public final class MpiRuntime {
    /** {@code MPI_THREAD_SINGLE} … {@code MPI_THREAD_MULTIPLE}, Open MPI's values. */
    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_MULTIPLE = 3;

    private final Device device;
    private final int threadLevel;
    private final Thread mainThread;
    private final ContextIds contextIds = new ContextIds();
    private final Keyvals keyvals = new Keyvals();
    private final Keyvals typeKeyvals = new Keyvals();
    private final AttributeTables<TypeDescriptor> typeAttributes = new AttributeTables<>();
    private final Communicator world;
    private final Communicator self;
    private final BsendBuffer bsendBuffer;
    private final org.weft.core.dyn.Ports ports = new org.weft.core.dyn.Ports();
    /** The intercommunicator to the processes that spawned this world; {@code null} when none did. */
    private volatile Communicator parent;
    private final java.util.Set<Runnable> atFinish = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean finalized;
    /** {@code MPI.newByteBuffer}'s memory: shared with the host's other ranks where the device can. */
    private final org.weft.core.rma.SharedBuffers sharedBuffers;
    /** The memory of a closed file's two-phase I/O, for the next file. */
    private final org.weft.core.io.SpareCollectiveBuffer spareCollectiveBuffer =
            new org.weft.core.io.SpareCollectiveBuffer();

    /**
     * Wraps an open device. {@code requiredThreadLevel} is what the program asked for; Weft provides every
     * level up to {@code MPI_THREAD_MULTIPLE}, so the level provided is the one required (clamped to range).
     */
    public MpiRuntime(Device device, int requiredThreadLevel) {
        this.device = device;
        this.threadLevel = Math.clamp(requiredThreadLevel, THREAD_SINGLE, THREAD_MULTIPLE);
        this.mainThread = Thread.currentThread();
        int first = device.dynamic().worldFirstRank();
        int[] worldRanks = new int[device.size()];
        java.util.Arrays.setAll(worldRanks, i -> first + i);
        this.world = new Communicator(this, first == 0 ? ProcessGroup.world(device.size())
                : ProcessGroup.of(worldRanks), ContextIds.WORLD, "MPI_COMM_WORLD", true);
        this.self = new Communicator(this, ProcessGroup.of(device.rank()), ContextIds.SELF, "MPI_COMM_SELF", true);
        this.bsendBuffer = new BsendBuffer(device);
        this.sharedBuffers = new org.weft.core.rma.SharedBuffers(device.sharedMemory());
    }

    /** Where {@code MPI.newByteBuffer} takes its memory (windows over it are in shared memory). */
    public org.weft.core.rma.SharedBuffers sharedBuffers() {
        return sharedBuffers;
    }

    /** Where a file takes the memory of its two-phase I/O, and leaves it at close for the next file. */
    public org.weft.core.io.SpareCollectiveBuffer spareCollectiveBuffer() {
        return spareCollectiveBuffer;
    }

    public Device device() {
        return device;
    }

    public Communicator world() {
        return world;
    }

    public Communicator self() {
        return self;
    }

    /** {@code MPI_Comm_get_parent}: the intercommunicator to this world's parents, or {@code null}. */
    public Communicator parent() {
        Communicator p = parent;
        return p == null || p.isFreed() ? null : p;
    }

    /** In {@code MPI_Init}: a spawned world joins the parents that wait for it in their spawn. */
    void joinParents() {
        parent = org.weft.core.dyn.Spawning.parentOf(world);
    }

    /** This process's ports ({@code MPI_Open_port} ...). */
    public org.weft.core.dyn.Ports ports() {
        return ports;
    }

    public ContextIds contextIds() {
        return contextIds;
    }

    public Keyvals keyvals() {
        return keyvals;
    }

    /** The keyvals of datatype attributes ({@code MPI_Type_create_keyval}), apart from the communicators'. */
    public Keyvals typeKeyvals() {
        return typeKeyvals;
    }

    /** The attributes set on datatypes in this process, predefined ones included. */
    public AttributeTables<TypeDescriptor> typeAttributes() {
        return typeAttributes;
    }

    public BsendBuffer bsendBuffer() {
        return bsendBuffer;
    }

    /** The thread level provided ({@code MPI_Query_thread}). */
    public int threadLevel() {
        return threadLevel;
    }

    /** {@code MPI_Is_thread_main}: true on the thread that called {@code MPI_Init}. */
    public boolean isMainThread() {
        return Thread.currentThread() == mainThread;
    }

    public boolean isFinalized() {
        return finalized;
    }

    /**
     * {@code MPI_INFO_ENV}'s entries (MPI 4.1 §11.2.3): the command, its arguments (blank-separated), how many
     * processes it was started with, this host, the architecture, the working directory and the thread level.
     */
    public java.util.Map<String, String> environmentInfo() {
        org.weft.adi.ProcessStart start = device.start();
        java.util.Map<String, String> info = new java.util.LinkedHashMap<>();
        info.put("command", start.command());
        info.put("argv", String.join(" ", start.argv()));
        info.put("maxprocs", Integer.toString(start.maxprocs()));
        info.put("host", device.processorName());
        info.put("arch", System.getProperty("os.arch", ""));
        info.put("wdir", start.wdir());
        info.put("thread_level", THREAD_LEVEL_NAMES[threadLevel]);
        info.values().removeIf(String::isEmpty); // MPI: a key the implementation does not know is absent
        return java.util.Collections.unmodifiableMap(info);
    }

    private static final String[] THREAD_LEVEL_NAMES = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
        "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};

    /** Fails with {@code ERR_OTHER} once {@code MPI_Finalize} ran. */
    public MpiRuntime checkActive() {
        if (finalized) {
            throw MpiErrors.error(ErrorClass.ERR_OTHER, "MPI has already been finalized");
        }
        return this;
    }

    /** {@code MPI_Finalize}: waits for buffered sends, then finishes the device (collective). */
    public void finish() {
        checkActive();
        bsendBuffer.drain();
        for (Runnable step : atFinish.toArray(Runnable[]::new)) {
            step.run();
        }
        finalized = true;
        sharedBuffers.close();
        spareCollectiveBuffer.close();
        device.finish();
    }

    /**
     * Runs {@code step} at {@code MPI_Finalize}, before the device finishes, unless {@link #cancelAtFinish} took it
     * back: a window the program did not free stops its service thread there.
     */
    public void atFinish(Runnable step) {
        atFinish.add(step);
    }

    /** Takes back a step given to {@link #atFinish}. */
    public void cancelAtFinish(Runnable step) {
        atFinish.remove(step);
    }

    /**
     * Reports an error under {@code MPI_ERRORS_ARE_FATAL} and aborts the job with the error class as its exit code;
     * does not return. The message, printed here, names this rank, the call, the object it was called on
     * ({@code null}: none worth naming), the communicator whose handler the error was raised on when it is another
     * ({@code raisedOn}, else {@code null}) and the error class; the launcher, which says why it ends the job, gets
     * only the class, the call and the object, so that the user reads the error once.
     */
    public RuntimeException fatal(String call, String object, String raisedOn, DeviceException error) {
        String message = MpiErrors.fatalMessage(device.rank(), device.size(), call, object, raisedOn,
                error.errorClass(), error.getMessage());
        System.err.println(message);
        System.err.flush();
        device.abort(error.errorClass() == 0 ? 1 : error.errorClass(), MpiErrors.name(error.errorClass()) + " in "
                + call + (object == null ? "" : " on " + object) + " (MPI.ERRORS_ARE_FATAL)");
        throw new IllegalStateException("Device.abort returned: " + message);
    }
}
