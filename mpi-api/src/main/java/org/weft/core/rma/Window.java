package org.weft.core.rma;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Map;

import org.weft.adi.Device;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.Locality;
import org.weft.core.MpiRuntime;
import org.weft.core.attr.AttributeTable;
import org.weft.core.coll.Collectives;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.CreationCalls;
import org.weft.core.comm.Intracomms;
import org.weft.core.comm.ProcessGroup;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.ErrorMode;
import org.weft.core.error.MpiErrors;

/**
 * A window ({@code MPI_Win}): memory of each member of a communicator that the others may put to, get from and
 * accumulate into. Creation duplicates the communicator, so a window's requests and replies travel in contexts
 * of their own, and starts the window's {@link WindowService}; the members' sizes and displacement units are
 * gathered, so an origin checks target ranges itself ({@code ERR_RMA_RANGE}) before anything travels.
 *
 * <p>Origin side: every operation is complete locally when its call returns (a get's data has arrived, a put's
 * buffer may be reused); puts and accumulates are complete at the target at the next synchronisation (fence,
 * flush, unlock), which asks each target it wrote to for a reply that comes after them. Epochs are checked:
 * an operation outside an access epoch to its target is {@code ERR_RMA_SYNC}. A window whose members all share
 * a host and whose memory is {@link SharedBuffers}' at each is a {@link SharedWindow} instead: no service, no
 * messages; the origin copies, locks and accumulates in the mapped memory itself.
 */
public final class Window {
    /**
     * Whether no window of this process has a service thread (windows in shared memory have none): while one has, an
     * origin's passive-target call may wait for this process's progress at any time.
     */
    public static boolean noServiceRunning() {
        return WindowService.noneRunning();
    }

    public static final int FLAVOR_CREATE = 1;
    public static final int FLAVOR_ALLOCATE = 2;
    public static final int FLAVOR_DYNAMIC = 3;
    public static final int FLAVOR_SHARED = 4;
    /** Assertions ({@code MPI.MODE_*}, Open MPI's values). */
    static final int MODE_NOCHECK = 1;
    static final int MODE_NOPRECEDE = 2;
    static final int MODE_NOSUCCEED = 16;
    private static final int ALL_MODES = 31;
    /** Marks a lock taken with {@code MPI_MODE_NOCHECK}, which the target's lock table never heard of. */
    private static final int UNCHECKED = 0x100;

    private final Communicator comm;
    private final MpiRuntime runtime;
    private final Device device;
    private final MemorySegment memory;
    private final int dispUnit;
    private final int flavor;
    private final long[] sizes;
    private final int[] dispUnits;
    /** The target side for requests that come as messages; {@code null} for a window in shared memory. */
    private final WindowService service;
    /** The window in shared memory ({@link SharedWindow}), or {@code null}: its operations are messages. */
    private final SharedWindow shared;
    /** A dynamic window's attached memory ({@link AttachedMemory}), {@code null} for the other flavors. */
    private final AttachedMemory attached;
    private final Runnable closeAtFinish = this::stopService;
    private final AttributeTable attributes = new AttributeTable();
    private final OriginRequests origin;
    private final AccumulateOp.Combiners combiners = new AccumulateOp.Combiners();
    private final OriginViews views = new OriginViews();
    private volatile ErrorMode errorMode = ErrorMode.FATAL;
    private volatile String name = "";
    private volatile Map<String, String> info = Map.of();
    private volatile boolean freed;
    // access epochs, under this window's monitor
    private boolean fenceEpoch;
    private boolean lockedAll;
    private final int[] lockTypes;
    private final boolean[] written;
    /** Targets of the access epoch that start opened (comm ranks), {@code null} outside one. */
    private boolean[] started;
    /** The origins' complete notices that the exposure epoch post opened waits for, {@code null} outside one. */
    private DeviceRequest[] completions;

    private Window(Communicator comm, MemorySegment memory, int dispUnit, int flavor, long[] sizes,
                   int[] dispUnits, SharedWindow shared) {
        this.comm = comm;
        this.runtime = comm.runtime();
        this.device = comm.device();
        this.memory = memory;
        this.dispUnit = dispUnit;
        this.flavor = flavor;
        this.sizes = sizes;
        this.dispUnits = dispUnits;
        this.lockTypes = new int[comm.size()];
        this.written = new boolean[comm.size()];
        this.origin = new OriginRequests(device, comm.context());
        this.attached = flavor == FLAVOR_DYNAMIC ? new AttachedMemory() : null;
        this.shared = shared;
        this.service = shared != null ? null : new WindowService(device, comm.context(), memory, attached,
                "weft-window-" + device.rank() + "-" + comm.context());
        runtime.atFinish(closeAtFinish);
    }

    /**
     * {@code MPI_Win_create} ({@code FLAVOR_CREATE}) or {@code MPI_Win_allocate} ({@code FLAVOR_ALLOCATE},
     * {@code FLAVOR_SHARED}) over {@code memory}: collective over {@code parent}. {@code ERR_ARG} for a
     * displacement unit below 1, {@code ERR_RMA_SHARED} for a shared window over ranks of several hosts.
     */
    public static Window create(Communicator parent, MemorySegment memory, int dispUnit, int flavor) {
        parent.checkUsable();
        if (parent.isInter()) {
            throw MpiErrors.error(ErrorClass.ERR_COMM, "a window needs an intracommunicator");
        }
        if (dispUnit < 1) {
            throw MpiErrors.error(ErrorClass.ERR_DISP, "the displacement unit must be positive, not " + dispUnit);
        }
        if (flavor == FLAVOR_SHARED) {
            checkOneHost(parent);
        }
        Communicator comm = Intracomms.dup(parent);
        long size = memory.byteSize();
        SharedWindow.Offer offer = new SharedWindow.Offer(comm, memory);
        int stride = 3 + SharedWindow.OFFER_INTS;
        int[] mine = new int[stride];
        mine[0] = (int) size;
        mine[1] = (int) (size >>> 32);
        mine[2] = dispUnit;
        System.arraycopy(offer.ints(), 0, mine, 3, SharedWindow.OFFER_INTS);
        int[] all = CreationCalls.allGather(comm, mine);
        long[] sizes = new long[comm.size()];
        int[] dispUnits = new int[comm.size()];
        for (int r = 0; r < comm.size(); r++) {
            sizes[r] = (all[stride * r] & 0xFFFF_FFFFL) | ((long) all[stride * r + 1] << 32);
            dispUnits[r] = all[stride * r + 2];
        }
        return new Window(comm, memory, dispUnit, flavor, sizes, dispUnits, offer.join(all, 3, stride));
    }

    /**
     * {@code MPI_Win_create_dynamic}: a window with no memory until each process attaches some ({@link #attach});
     * collective over {@code parent}. Displacements count bytes in each process's attach space (see
     * {@link AttachedMemory}); an origin cannot check them against memory attached elsewhere, the target does.
     */
    public static Window createDynamic(Communicator parent) {
        parent.checkUsable();
        if (parent.isInter()) {
            throw MpiErrors.error(ErrorClass.ERR_COMM, "a window needs an intracommunicator");
        }
        Communicator comm = Intracomms.dup(parent);
        long[] sizes = new long[comm.size()];
        int[] dispUnits = new int[comm.size()];
        java.util.Arrays.fill(sizes, AttachedMemory.SPACE);
        java.util.Arrays.fill(dispUnits, 1);
        return new Window(comm, MemorySegment.NULL, 1, FLAVOR_DYNAMIC, sizes, dispUnits, null);
    }

    /** {@code MPI_Win_attach}: exposes {@code memory} in this dynamic window; returns its displacement. */
    public long attach(MemorySegment memory) {
        checkUsable();
        return dynamic("MPI_Win_attach").attach(memory);
    }

    /** {@code MPI_Win_detach}: the memory attached from {@code memory}'s first byte is no longer exposed. */
    public void detach(MemorySegment memory) {
        checkUsable();
        dynamic("MPI_Win_detach").detach(memory);
    }

    /** Where memory attached from {@code memory}'s first byte lies in this dynamic window, -1 if none is. */
    public long displacementOf(MemorySegment memory) {
        checkUsable();
        return dynamic("the displacement of attached memory").displacementOf(memory);
    }

    private AttachedMemory dynamic(String call) {
        if (attached == null) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_FLAVOR, call + " needs a dynamic window (new Win(info, comm))");
        }
        return attached;
    }

    private static void checkOneHost(Communicator parent) {
        Device device = parent.device();
        Locality mine = device.locality(device.rank());
        for (int r = 0; r < parent.size(); r++) {
            Locality other = device.locality(parent.toWorld(r));
            if (!other.host().equals(mine.host()) || !other.site().equals(mine.site())) {
                throw MpiErrors.error(ErrorClass.ERR_RMA_SHARED, "a shared window needs ranks of one host, but rank "
                        + r + " runs on " + other.host() + " and this one on " + mine.host());
            }
        }
    }

    // ------------------------------------------------------------------ the window as an object

    public MpiRuntime runtime() {
        return runtime;
    }

    /** The window's own communicator (a duplicate of the one it was created on). */
    public Communicator communicator() {
        return comm;
    }

    public MemorySegment memory() {
        return memory;
    }

    public int dispUnit() {
        return dispUnit;
    }

    public int flavor() {
        return flavor;
    }

    public ErrorMode errorMode() {
        return errorMode;
    }

    public void setErrorMode(ErrorMode mode) {
        errorMode = mode;
    }

    public String name() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public Map<String, String> info() {
        return info;
    }

    public void setInfo(Map<String, String> hints) {
        info = Map.copyOf(hints);
    }

    public AttributeTable attributes() {
        return attributes;
    }

    public boolean isFreed() {
        return freed;
    }

    /** This window; {@code ERR_WIN} once freed. */
    public Window checkUsable() {
        if (freed) {
            throw MpiErrors.error(ErrorClass.ERR_WIN, "the window has been freed");
        }
        return this;
    }

    /**
     * {@code MPI_Win_free}: collective; {@code ERR_RMA_SYNC} while this process holds a lock on the window. The
     * barrier first lets every origin finish its epochs, so no request is left for the service when it stops.
     */
    public synchronized void free() {
        checkUsable();
        if (lockedAll || anyLock() || started != null || completions != null) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "the window is freed inside an epoch (a lock, or"
                    + " start or post without complete or wait)");
        }
        completeWrites();
        Collectives.barrier(comm, true).run(); // blocking: through the shared segment when there is one
        freed = true;
        runtime.cancelAtFinish(closeAtFinish);
        stopService();
        if (shared != null) {
            shared.close();
        }
        comm.free();
    }

    private void stopService() {
        if (service != null) {
            service.close();
        }
    }

    // ------------------------------------------------------------------ synchronisation

    /** {@code MPI_Win_fence}: completes this process's writes at their targets, then a barrier. */
    public synchronized void fence(int assertion) {
        checkUsable();
        checkAssertion(assertion);
        if (lockedAll || anyLock()) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "fence inside a passive-target epoch");
        }
        if (shared != null) {
            shared.fence(); // the stores are done: a barrier whose atomic add orders them before it
        } else {
            completeWrites();
            VarHandle.fullFence();
            Collectives.barrier(comm, true).run(); // blocking: through the shared segment when there is one
            VarHandle.fullFence();
        }
        fenceEpoch = (assertion & MODE_NOSUCCEED) == 0;
    }

    /**
     * {@code MPI_Win_post}: opens an exposure epoch to the origins of {@code group} (a group of world ranks, all
     * members of the window), telling each that it may start, and listens for their complete notices.
     */
    public synchronized void post(ProcessGroup group, int assertion) {
        checkUsable();
        checkAssertion(assertion);
        if (completions != null) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "post inside an exposure epoch: call wait first");
        }
        int[] origins = members(group);
        DeviceRequest[] notices = new DeviceRequest[origins.length];
        for (int i = 0; i < origins.length; i++) {
            notices[i] = device.irecv(MemorySegment.NULL, origins[i], RmaFrame.COMPLETE_TAG, comm.context());
            origin.notify(origins[i], RmaFrame.POST_TAG);
        }
        completions = notices;
    }

    /** {@code MPI_Win_start}: opens an access epoch to the targets of {@code group} once each has posted. */
    public synchronized void start(ProcessGroup group, int assertion) {
        checkUsable();
        checkAssertion(assertion);
        if (started != null) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "start inside an access epoch: call complete first");
        }
        int[] targets = members(group);
        boolean[] access = new boolean[comm.size()];
        for (int target : targets) {
            origin.awaitNotice(target, RmaFrame.POST_TAG);
            access[comm.fromWorld(target)] = true;
        }
        started = access;
    }

    /** {@code MPI_Win_complete}: this epoch's writes are done at their targets, and each target is told. */
    public synchronized void complete() {
        checkUsable();
        if (started == null) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "complete without start");
        }
        completeWrites();
        for (int r = 0; r < started.length; r++) {
            if (started[r]) {
                origin.notify(comm.toWorld(r), RmaFrame.COMPLETE_TAG);
            }
        }
        started = null;
    }

    /** {@code MPI_Win_wait}: returns when every origin of the exposure epoch has completed. */
    public synchronized void waitFor() {
        checkUsable();
        if (completions == null) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "wait without post");
        }
        for (DeviceRequest notice : completions) {
            device.await(notice);
        }
        completions = null;
        VarHandle.fullFence();
    }

    /** {@code MPI_Win_test}: true, and the exposure epoch over, when every origin has completed. */
    public synchronized boolean test() {
        checkUsable();
        if (completions == null) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "test without post");
        }
        device.progress();
        for (DeviceRequest notice : completions) {
            if (!notice.isComplete()) {
                return false;
            }
        }
        completions = null;
        VarHandle.fullFence();
        return true;
    }

    /** The world ranks of {@code group}, each a member of the window; {@code ERR_GROUP} otherwise. */
    private int[] members(ProcessGroup group) {
        if (group == null) {
            throw MpiErrors.error(ErrorClass.ERR_GROUP, "the group is null");
        }
        int[] ranks = group.worldRanks();
        for (int rank : ranks) {
            if (comm.fromWorld(rank) < 0) {
                throw MpiErrors.error(ErrorClass.ERR_GROUP, "world rank " + rank + " is not in the window's group");
            }
        }
        return ranks;
    }

    /**
     * {@code MPI_Win_lock}: waits until the target grants the lock (or, with {@code MPI_MODE_NOCHECK}, takes it
     * without asking: the program promises that no one else holds a conflicting lock).
     */
    public synchronized void lock(int lockType, int rank, int assertion) {
        checkUsable();
        if (lockType != TargetLocks.EXCLUSIVE && lockType != TargetLocks.SHARED) {
            throw MpiErrors.error(ErrorClass.ERR_LOCKTYPE, "lock type " + lockType
                    + " is neither MPI.LOCK_EXCLUSIVE nor MPI.LOCK_SHARED");
        }
        checkAssertion(assertion);
        if (Communicator.isProcNull(rank)) {
            return;
        }
        checkRank(rank);
        if (lockedAll || lockTypes[rank] != 0) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "rank " + rank + " of the window is already locked");
        }
        acquire(rank, lockType, assertion);
    }

    /**
     * Takes the lock of {@code rank}: asks its target, or with {@code MPI_MODE_NOCHECK} only notes it (marked
     * {@link #UNCHECKED}, so that the release asks nothing of the target's lock table either).
     */
    private void acquire(int rank, int lockType, int assertion) {
        if ((assertion & MODE_NOCHECK) == 0 && shared != null) {
            shared.lock(rank, lockType);
            lockTypes[rank] = lockType;
        } else if ((assertion & MODE_NOCHECK) == 0) {
            origin.roundTrip(comm.toWorld(rank), RmaFrame.LOCK, lockType);
            lockTypes[rank] = lockType;
        } else {
            lockTypes[rank] = lockType | UNCHECKED;
        }
    }

    /** Completes this process's operations on {@code rank} there and gives its lock back. */
    private void release(int rank) {
        if (shared != null) {
            if ((lockTypes[rank] & UNCHECKED) == 0) {
                shared.unlock(rank, lockTypes[rank]); // a volatile write: this member's stores are seen before it
            } else {
                VarHandle.fullFence();
            }
        } else if ((lockTypes[rank] & UNCHECKED) == 0) {
            origin.roundTrip(comm.toWorld(rank), RmaFrame.UNLOCK, 0);
        } else if (written[rank]) {
            origin.roundTrip(comm.toWorld(rank), RmaFrame.FLUSH, 0);
        }
        lockTypes[rank] = 0;
        written[rank] = false;
    }

    /** {@code MPI_Win_unlock}: completes this process's operations at the target and releases the lock. */
    public synchronized void unlock(int rank) {
        checkUsable();
        if (Communicator.isProcNull(rank)) {
            return;
        }
        checkRank(rank);
        if (lockedAll || lockTypes[rank] == 0) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "rank " + rank + " of the window is not locked");
        }
        release(rank);
    }

    /** {@code MPI_Win_lock_all}: a shared lock on every rank. */
    public synchronized void lockAll(int assertion) {
        checkUsable();
        checkAssertion(assertion);
        if (lockedAll || anyLock()) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "the window is already locked");
        }
        for (int r = 0; r < comm.size(); r++) {
            acquire(r, TargetLocks.SHARED, assertion);
        }
        lockedAll = true;
    }

    /** {@code MPI_Win_unlock_all}. */
    public synchronized void unlockAll() {
        checkUsable();
        if (!lockedAll) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "the window is not locked by lockAll");
        }
        for (int r = 0; r < comm.size(); r++) {
            release(r);
        }
        lockedAll = false;
    }

    /** {@code MPI_Win_flush}: this process's operations on {@code rank} are complete there. */
    public synchronized void flush(int rank) {
        checkPassive(rank);
        if (shared != null) {
            VarHandle.releaseFence(); // the copies are done: only their order before what this member does next
        } else if (!Communicator.isProcNull(rank) && written[rank]) {
            origin.roundTrip(comm.toWorld(rank), RmaFrame.FLUSH, 0);
            written[rank] = false;
        }
    }

    /** {@code MPI_Win_flush_all}. */
    public synchronized void flushAll() {
        checkUsable();
        if (!lockedAll && !anyLock()) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "flush outside a passive-target epoch");
        }
        completeWrites();
    }

    /**
     * {@code MPI_Win_flush_local}: nothing to wait for, since every operation is complete locally when its call
     * returns; only the epoch is checked.
     */
    public synchronized void flushLocal(int rank) {
        checkPassive(rank);
    }

    /** {@code MPI_Win_flush_local_all}: only the epoch is checked, as {@link #flushLocal}. */
    public synchronized void flushLocalAll() {
        checkUsable();
        if (!lockedAll && !anyLock()) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "flush outside a passive-target epoch");
        }
    }

    /** {@code MPI_Win_sync}: the window's memory as the other threads and the service left it. */
    public void sync() {
        checkUsable();
        VarHandle.fullFence();
    }

    private void checkPassive(int rank) {
        checkUsable();
        if (Communicator.isProcNull(rank)) {
            return;
        }
        checkRank(rank);
        if (lockTypes[rank] == 0) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "rank " + rank + " of the window is not locked");
        }
    }

    /** Waits until every target written to since the last synchronisation has applied the writes. */
    private void completeWrites() {
        VarHandle.fullFence(); // a window in shared memory: this member's stores are done, ordered before what follows
        for (int r = 0; r < written.length; r++) {
            if (written[r]) {
                origin.roundTrip(comm.toWorld(r), RmaFrame.FLUSH, 0);
                written[r] = false;
            }
        }
    }

    private boolean anyLock() {
        for (int type : lockTypes) {
            if (type != 0) {
                return true;
            }
        }
        return false;
    }

    private static void checkAssertion(int assertion) {
        if ((assertion & ~ALL_MODES) != 0) {
            throw MpiErrors.error(ErrorClass.ERR_ASSERT, "unknown assertion bits " + assertion);
        }
    }

    // ------------------------------------------------------------------ operations

    /**
     * Checks an operation on {@code rank} at displacement {@code disp}: the rank, an open access epoch to it, and
     * that {@code count} items of {@code type} lie inside its window; returns the byte offset there.
     */
    long targetOffset(int rank, long disp, int count, TypeDescriptor type) {
        checkUsable();
        checkRank(rank);
        if (!fenceEpoch && !lockedAll && lockTypes[rank] == 0 && (started == null || !started[rank])) {
            throw MpiErrors.error(ErrorClass.ERR_RMA_SYNC, "no access epoch to rank " + rank
                    + " is open: call fence, lock or lockAll first");
        }
        long offset = disp * dispUnits[rank];
        if (count > 0 && type.byteSize() > 0) {
            long lastStart = (count - 1) * type.extent();
            long low = offset + Math.min(0, lastStart) + type.trueLb();
            long high = offset + Math.max(0, lastStart) + type.trueLb() + type.trueExtent();
            if (disp < 0 || low < 0 || high > sizes[rank]) {
                throw MpiErrors.error(ErrorClass.ERR_RMA_RANGE, "bytes " + low + " to " + high + " lie outside"
                        + " the window of rank " + rank + ", which holds " + sizes[rank] + " bytes");
            }
        }
        return offset;
    }

    private void checkRank(int rank) {
        if (rank < 0 || rank >= comm.size()) {
            throw MpiErrors.error(ErrorClass.ERR_RANK, "rank " + rank + " is not in the window's group of "
                    + comm.size());
        }
    }

    /** The origin side's messages; {@link OneSided} uses it under this window's monitor. */
    OriginRequests origin() {
        return origin;
    }

    /** Combiners for the origin's checks that an accumulate's operation is defined on its type. */
    AccumulateOp.Combiners combiners() {
        return combiners;
    }

    /** The window in shared memory, or {@code null} when operations are messages to the target's service. */
    SharedWindow shared() {
        return shared;
    }

    /** Segments over the origin buffers of {@link DirectCalls}. */
    OriginViews views() {
        return views;
    }

    /**
     * Whether {@code rank} is a member with an access epoch open to it (fence, lock, lockAll or start); read
     * without the monitor by {@link DirectCalls}: only this process's synchronisation calls change it.
     */
    boolean accessOpen(int rank) {
        boolean[] access = started; // one read: another thread's complete may end that epoch meanwhile
        return rank >= 0 && rank < lockTypes.length
                && (fenceEpoch || lockTypes[rank] != 0 || access != null && access[rank]);
    }

    /** Whether {@code rank} is a member this process holds locked (lock or lockAll); see {@link #accessOpen}. */
    boolean holdsLock(int rank) {
        return rank >= 0 && rank < lockTypes.length && lockTypes[rank] != 0;
    }

    /**
     * Takes {@code rank}'s lock of {@code lockType} in shared memory without the monitor ({@link DirectCalls}):
     * false, having done nothing, unless this is a window in shared memory that this process has not locked
     * there (nor all of it). Only the calling thread writes the rank's entry: MPI lets threads lock different
     * targets at once, and locking one target twice is the program's error, which the general path reports.
     */
    boolean lockDirect(int lockType, int rank) {
        if (shared == null || rank < 0 || rank >= lockTypes.length || lockedAll || lockTypes[rank] != 0
                || (lockType != TargetLocks.EXCLUSIVE && lockType != TargetLocks.SHARED)) {
            return false;
        }
        shared.lock(rank, lockType);
        lockTypes[rank] = lockType;
        return true;
    }

    /** Gives back {@code rank}'s lock that {@link #lockDirect} (or lock) took; false: not such a lock. */
    boolean unlockDirect(int rank) {
        if (shared == null || rank < 0 || rank >= lockTypes.length || lockedAll) {
            return false;
        }
        int type = lockTypes[rank];
        if (type != TargetLocks.EXCLUSIVE && type != TargetLocks.SHARED) { // not locked, or locked unchecked
            return false;
        }
        shared.unlock(rank, type); // a volatile write or atomic add: this member's stores are seen before it
        lockTypes[rank] = 0;
        return true;
    }

    /** {@code rank}'s displacement unit. */
    int dispUnit(int rank) {
        return dispUnits[rank];
    }

    /** The bytes of {@code rank}'s window. */
    long windowBytes(int rank) {
        return sizes[rank];
    }

    void wrote(int rank) {
        written[rank] = true;
    }
}
