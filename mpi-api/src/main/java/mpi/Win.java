package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

import org.weft.adi.DeviceException;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.ProcessGroup;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.error.MpiErrors;
import org.weft.core.rma.DirectCalls;
import org.weft.core.rma.OneSided;
import org.weft.core.rma.Window;

/**
 * A window for one-sided communication ({@code MPI_Win}) over the core's {@link Window}: creation over a direct
 * buffer, puts, gets, accumulates, fence and passive-target synchronisation, attributes, names and error handlers.
 * Errors go to the window's handler ({@code MPI.ERRORS_ARE_FATAL} unless set otherwise, as MPI says); a call on
 * a freed window is {@code ERR_WIN} on {@code MPI_COMM_WORLD}. Dynamic windows ({@link #Win(Info, Comm)},
 * {@link #attach}, {@link #detach}) count displacements in bytes of each process's attach space.
 */
public final class Win implements Freeable {
    public static final int WIN_NULL = 0;
    /** Flavors of the allocating constructor: {@code MPI_Win_allocate} and {@code MPI_Win_allocate_shared}. */
    public static final int FLAVOR_PRIVATE = 0;
    public static final int FLAVOR_SHARED = 1;

    private final Window window;
    /**
     * The buffer of a window made over one, kept while the window is: its memory may be {@code MPI.newByteBuffer}'s
     * shared memory, which goes back to the heap when the buffer is collected.
     */
    private final Buffer base;

    /**
     * {@code MPI_Win_create}: the first {@code size} elements of {@code base} (counted in the buffer's elements, as
     * Open MPI's bindings count them), which must be a direct buffer; {@code base} may be {@code null} for a
     * window of size 0. Collective over {@code comm}.
     */
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        this.base = base;
        this.window = create("MPI_Win_create", base, size, base == null ? 1 : elementBytes(comm, base), dispUnit,
                info, comm, Window.FLAVOR_CREATE);
    }

    /**
     * {@code MPI_Win_allocate} ({@link #FLAVOR_PRIVATE}) or {@code MPI_Win_allocate_shared}
     * ({@link #FLAVOR_SHARED}, ranks of one host only: {@code ERR_RMA_SHARED}). Open MPI's bindings pass
     * {@code base} where C returns the allocated address, so they write a pointer into it; Weft makes the first
     * {@code size} bytes of the direct buffer {@code base} the window instead, which gives the program its memory.
     */
    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) throws MPIException {
        this.base = base;
        this.window = create(flavor == FLAVOR_SHARED ? "MPI_Win_allocate_shared" : "MPI_Win_allocate", base, size,
                1, dispUnit, info, comm, allocateFlavor(comm, flavor));
    }

    /**
     * {@code MPI_Win_create_dynamic}: a window without memory until each process {@link #attach}es some; collective
     * over {@code comm}. Java has no addresses to give an origin (and displacements here are {@code int}s), so a
     * dynamic window's displacements are bytes in each process's <em>attach space</em>: the first buffer a process
     * attaches starts at 0, each later one where the one before it ended, rounded up to 8 bytes (space is not reused
     * after a detach). An access beyond the memory attached at its target is dropped there, with a line on the
     * target's standard error (a get gets zeros): only the target knows what it attached.
     */
    public Win(Info info, Comm comm) throws MPIException {
        Communicator c = communicator(comm);
        this.base = null;
        try {
            this.window = Window.createDynamic(c);
            if (info != null) {
                window.setInfo(info.entries());
            }
        } catch (DeviceException e) {
            throw Errors.raise(c, "MPI_Win_create_dynamic", e);
        }
    }

    private static Window create(String call, Buffer base, int size, int elementBytes, int dispUnit, Info info,
                                 Comm comm, int flavor) throws MPIException {
        Communicator c = communicator(comm);
        try {
            Window window = Window.create(c, memory(base, size, elementBytes), dispUnit, flavor);
            if (info != null) {
                window.setInfo(info.entries());
            }
            return window;
        } catch (DeviceException e) {
            throw Errors.raise(c, call, e);
        }
    }

    private static Communicator communicator(Comm comm) throws MPIException {
        if (comm == null) {
            throw Errors.invalidCommunicator(null);
        }
        return comm.core();
    }

    private static int elementBytes(Comm comm, Buffer base) throws MPIException {
        try {
            return BufferMapping.elementBytes(base);
        } catch (DeviceException e) {
            throw Errors.raise(communicator(comm), "MPI_Win_create", e);
        }
    }

    private static int allocateFlavor(Comm comm, int flavor) throws MPIException {
        return switch (flavor) {
            case FLAVOR_PRIVATE -> Window.FLAVOR_ALLOCATE;
            case FLAVOR_SHARED -> Window.FLAVOR_SHARED;
            default -> throw Errors.raise(communicator(comm), "MPI_Win_allocate", MpiErrors.error(
                    ErrorClass.ERR_ARG, "flavor " + flavor + " is neither Win.FLAVOR_PRIVATE nor FLAVOR_SHARED"));
        };
    }

    /** The window's memory: the first {@code size} elements of a direct buffer, from its index 0. */
    private static MemorySegment memory(Buffer base, int size, int elementBytes) {
        if (size < 0) {
            throw MpiErrors.error(ErrorClass.ERR_SIZE, "negative window size " + size);
        }
        if (base == null) {
            if (size != 0) {
                throw MpiErrors.error(ErrorClass.ERR_BUFFER, "the window's buffer is null");
            }
            return MemorySegment.NULL;
        }
        if (!base.isDirect()) {
            throw MpiErrors.error(ErrorClass.ERR_BUFFER, "a window needs a direct buffer");
        }
        long bytes = (long) size * elementBytes;
        MemorySegment whole = MemorySegment.ofBuffer(base.duplicate().clear());
        if (bytes > whole.byteSize()) {
            throw MpiErrors.error(ErrorClass.ERR_SIZE, "a window of " + bytes + " bytes does not fit in a buffer"
                    + " of " + whole.byteSize());
        }
        return whole.asSlice(0, bytes);
    }

    // ------------------------------------------------------------------ running calls

    /** A step on the core window, whose errors go through the window's handler. */
    @FunctionalInterface
    private interface WindowStep {
        void run(Window w);
    }

    private Window usable(String call) throws MPIException {
        if (window.isFreed()) {
            throw Errors.onWorld(call, ErrorClass.ERR_WIN, "the window has been freed");
        }
        return window;
    }

    /** A step that takes up to three ints: its lambda captures nothing, so a call allocates nothing. */
    @FunctionalInterface
    private interface IntsStep {
        void run(Window w, int a, int b, int c);
    }

    /**
     * As {@link #run(String, WindowStep)} for the synchronisation calls that programs make per operation (lock,
     * unlock, fence): a capturing lambda allocated per call (40 B a lock + unlock in {@code WindowCalls}).
     */
    private void run(String call, IntsStep step, int a, int b, int c) throws MPIException {
        Window w = usable(call);
        try {
            step.run(w, a, b, c);
        } catch (DeviceException e) {
            throw Errors.raise(w, call, e);
        }
    }

    private void run(String call, WindowStep step) throws MPIException {
        Window w = usable(call);
        try {
            step.run(w);
        } catch (DeviceException e) {
            throw Errors.raise(w, call, e);
        }
    }

    // ------------------------------------------------------------------ the window as an object

    /**
     * {@code MPI_Win_attach}: exposes the first {@code size} elements of the direct buffer {@code buf} (counted in the
     * buffer's elements, as the constructors count them) in this dynamic window, at the displacement its attach
     * space gives it (see {@link #Win(Info, Comm)}). {@code ERR_RMA_FLAVOR} on a window of another flavor,
     * {@code ERR_RMA_ATTACH} for memory that overlaps memory attached already.
     */
    public void attach(Buffer buf, int size) throws MPIException {
        Window w = usable("MPI_Win_attach");
        try {
            w.attach(memory(buf, size, buf == null ? 1 : BufferMapping.elementBytes(buf)));
        } catch (DeviceException e) {
            throw Errors.raise(w, "MPI_Win_attach", e);
        }
    }

    /** {@code MPI_Win_detach}: the memory attached from {@code buf}'s first element is no longer exposed. */
    public void detach(Buffer buf) throws MPIException {
        run("MPI_Win_detach", w -> {
            if (buf == null || !buf.isDirect()) {
                throw MpiErrors.error(ErrorClass.ERR_BUFFER, "only a direct buffer can have been attached");
            }
            w.detach(MemorySegment.ofBuffer(buf.duplicate().clear()));
        });
    }

    /** {@code MPI_Win_get_group}: the group of the communicator the window was created on. */
    public Group getGroup() throws MPIException {
        Communicator c = usable("MPI_Win_get_group").communicator();
        return new Group(c.group(), c.device().rank());
    }

    /** {@code MPI_Win_free}: collective; {@code ERR_RMA_SYNC} while this process holds a lock on it. */
    @Override
    public void free() throws MPIException {
        run("MPI_Win_free", Window::free);
    }

    /** {@code MPI_Win_set_errhandler}. */
    public void setErrhandler(Errhandler errhandler) throws MPIException {
        Window w = usable("MPI_Win_set_errhandler");
        if (errhandler == null) {
            throw Errors.raise(w, "MPI_Win_set_errhandler", MpiErrors.error(ErrorClass.ERR_ARG,
                    "the error handler is null"));
        }
        w.setErrorMode(errhandler.mode());
    }

    /** {@code MPI_Win_get_errhandler}. */
    public Errhandler getErrhandler() throws MPIException {
        return Errhandler.of(usable("MPI_Win_get_errhandler").errorMode());
    }

    /**
     * {@code MPI_Win_call_errhandler}: applies the window's handler to {@code errorCode}; under
     * {@code ERRORS_ARE_FATAL} the job aborts with it as exit code, under {@code ERRORS_RETURN} this returns.
     */
    public void callErrhandler(int errorCode) throws MPIException {
        Errors.raise(usable("MPI_Win_call_errhandler"), "MPI_Win_call_errhandler", MpiErrors.error(errorCode,
                "error raised by the program through callErrhandler"));
    }

    /** {@code MPI_Win_create_keyval}: windows share the communicators' keyvals. */
    public static int createKeyval() throws MPIException {
        return Comm.createKeyval();
    }

    /** {@code MPI_Win_free_keyval}. */
    public static void freeKeyval(int keyval) throws MPIException {
        Comm.freeKeyval(keyval);
    }

    /** {@code MPI_Win_set_attr}: stored by value, as on communicators. */
    public void setAttr(int keyval, Object value) throws MPIException {
        run("MPI_Win_set_attr", w -> {
            w.runtime().keyvals().checkUser(keyval);
            w.attributes().set(keyval, value);
        });
    }

    /**
     * {@code MPI_Win_get_attr}: {@code MPI.WIN_BASE} (the address, a {@code Long}), {@code WIN_SIZE} (bytes) and
     * {@code WIN_DISP_UNIT} as Open MPI's bindings return them, {@code MPI.WIN_CREATE_FLAVOR} and
     * {@code MPI.WIN_MODEL} ({@code MPI.WIN_UNIFIED}: the window is the program's memory); else a user attribute.
     */
    public Object getAttr(int keyval) throws MPIException {
        Window w = usable("MPI_Win_get_attr");
        return switch (keyval) {
            case MPI.WIN_BASE -> w.memory().address();
            case MPI.WIN_SIZE -> Math.toIntExact(w.memory().byteSize());
            case MPI.WIN_DISP_UNIT -> w.dispUnit();
            case MPI.WIN_CREATE_FLAVOR -> w.flavor();
            case MPI.WIN_MODEL -> MPI.WIN_UNIFIED;
            default -> userAttribute(w, keyval);
        };
    }

    private static Object userAttribute(Window w, int keyval) throws MPIException {
        if (!w.runtime().keyvals().wasCreated(keyval)) {
            throw Errors.raise(w, "MPI_Win_get_attr", MpiErrors.error(ErrorClass.ERR_KEYVAL,
                    "invalid keyval " + keyval));
        }
        try {
            return w.attributes().get(keyval);
        } catch (DeviceException e) {
            throw Errors.raise(w, "MPI_Win_get_attr", e);
        }
    }

    /** {@code MPI_Win_delete_attr}. */
    public void deleteAttr(int keyval) throws MPIException {
        Window w = usable("MPI_Win_delete_attr");
        if (!w.runtime().keyvals().wasCreated(keyval)) {
            throw Errors.raise(w, "MPI_Win_delete_attr", MpiErrors.error(ErrorClass.ERR_KEYVAL,
                    "invalid keyval " + keyval));
        }
        w.attributes().delete(keyval);
    }

    /** {@code MPI_Win_get_info}: a new info object with the hints given at creation or set since. */
    public Info getInfo() throws MPIException {
        return Info.of(usable("MPI_Win_get_info").info());
    }

    /** {@code MPI_Win_set_info}: hints are kept, none changes what Weft does. */
    public void setInfo(Info info) throws MPIException {
        Window w = usable("MPI_Win_set_info");
        if (info == null) {
            throw Errors.raise(w, "MPI_Win_set_info", MpiErrors.error(ErrorClass.ERR_INFO, "the info is null"));
        }
        w.setInfo(info.entries());
    }

    /** {@code MPI_Win_get_name}: empty until set. */
    public String getName() throws MPIException {
        return usable("MPI_Win_get_name").name();
    }

    /** {@code MPI_Win_set_name}. */
    public void setName(String name) throws MPIException {
        Window w = usable("MPI_Win_set_name");
        if (name == null) {
            throw Errors.raise(w, "MPI_Win_set_name", MpiErrors.error(ErrorClass.ERR_ARG, "the name is null"));
        }
        w.setName(name.length() > MPI.MAX_OBJECT_NAME ? name.substring(0, MPI.MAX_OBJECT_NAME) : name);
    }

    // ------------------------------------------------------------------ communication

    /** {@code MPI_Put}: the origin buffer may be reused when this returns; complete at the target at the next sync. */
    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
                    Datatype targetType) throws MPIException {
        if (DirectCalls.put(window, origin, orgCount, Datatype.descriptorOf(orgType), targetRank, targetDisp,
                targetCount, Datatype.descriptorOf(targetType))) {
            return;
        }
        run("MPI_Put", w -> OneSided.put(w, origin, orgCount, Datatype.descriptorOf(orgType), targetRank,
                targetDisp, targetCount, Datatype.descriptorOf(targetType)));
    }

    /** {@code MPI_Get}: the data is in {@code origin} when this returns. */
    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
                    Datatype targetType) throws MPIException {
        if (DirectCalls.get(window, origin, orgCount, Datatype.descriptorOf(orgType), targetRank, targetDisp,
                targetCount, Datatype.descriptorOf(targetType))) {
            return;
        }
        run("MPI_Get", w -> OneSided.get(w, origin, orgCount, Datatype.descriptorOf(orgType), targetRank,
                targetDisp, targetCount, Datatype.descriptorOf(targetType)));
    }

    /**
     * {@code MPI_Accumulate} with a predefined operation, {@code MPI.REPLACE} or {@code MPI.NO_OP}; atomic per
     * element against the other accumulates on the window.
     */
    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                           int targetCount, Datatype targetType, Op op) throws MPIException {
        run("MPI_Accumulate", w -> OneSided.accumulate(w, origin, orgCount, Datatype.descriptorOf(orgType),
                targetRank, targetDisp, targetCount, Datatype.descriptorOf(targetType), opName(op)));
    }

    /** {@code MPI_Get_accumulate}: {@code resultAddr} receives the target's data from before the operation. */
    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
                              Datatype resultType, int targetRank, int targetDisp, int targetCount,
                              Datatype targetType, Op op) throws MPIException {
        run("MPI_Get_accumulate", w -> OneSided.getAccumulate(w, origin, orgCount,
                orgType == null ? null : Datatype.descriptorOf(orgType), resultAddr, resultCount,
                Datatype.descriptorOf(resultType), targetRank, targetDisp, targetCount,
                Datatype.descriptorOf(targetType), opName(op)));
    }

    /** {@code MPI_Fetch_and_op}: one element. */
    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank, int targetDisp,
                           Op op) throws MPIException {
        if (op != null && DirectCalls.fetchAndOp(window, origin, resultAddr, Datatype.descriptorOf(dataType),
                targetRank, targetDisp, op.predefinedName())) {
            return;
        }
        run("MPI_Fetch_and_op", w -> OneSided.getAccumulate(w, origin, 1, Datatype.descriptorOf(dataType),
                resultAddr, 1, Datatype.descriptorOf(dataType), targetRank, targetDisp, 1,
                Datatype.descriptorOf(dataType), opName(op)));
    }

    /** {@code MPI_Compare_and_swap}: one element of a predefined type. */
    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype dataType,
                               int targetRank, int targetDisp) throws MPIException {
        if (DirectCalls.compareAndSwap(window, origin, compareAddr, resultAddr, Datatype.descriptorOf(dataType),
                targetRank, targetDisp)) {
            return;
        }
        run("MPI_Compare_and_swap", w -> OneSided.compareAndSwap(w, origin, compareAddr, resultAddr,
                Datatype.descriptorOf(dataType), targetRank, targetDisp));
    }

    private static String opName(Op op) {
        if (op == null) {
            throw MpiErrors.error(ErrorClass.ERR_OP, "the operation is null");
        }
        return op.predefinedName();
    }

    /**
     * {@code MPI_Rput}: as {@link #put}, which is complete locally when it returns, so the request is complete
     * from the start (MPI asks no more of it: completion at the target still comes with a flush, unlock or fence).
     */
    public final Request rPut(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                              int targetCount, Datatype targetType) throws MPIException {
        put(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType);
        return completed();
    }

    /** {@code MPI_Rget}: as {@link #get}; the data has arrived when the (complete) request is returned. */
    public final Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                              int targetCount, Datatype targetType) throws MPIException {
        get(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType);
        return completed();
    }

    /** {@code MPI_Raccumulate}: as {@link #accumulate}, with a complete request. */
    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
                               int targetCount, Datatype targetType, Op op) throws MPIException {
        accumulate(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, op);
        return completed();
    }

    /** {@code MPI_Rget_accumulate}: as {@link #getAccumulate}, with a complete request. */
    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr,
                                  int resultCount, Datatype resultType, int targetRank, int targetDisp,
                                  int targetCount, Datatype targetType, Op op) throws MPIException {
        getAccumulate(origin, orgCount, orgType, resultAddr, resultCount, resultType, targetRank, targetDisp,
                targetCount, targetType, op);
        return completed();
    }

    private Request completed() {
        return new Request(window.communicator(), DeviceRequest.completed(Ranks.PROC_NULL, Ranks.ANY_TAG));
    }

    private MPIException unsupported(String call) throws MPIException {
        return Errors.raise(usable(call), call, MpiErrors.unsupported(call));
    }

    // ------------------------------------------------------------------ synchronisation

    /** {@code MPI_Win_fence}: collective; completes every operation of the epoch it ends. */
    public void fence(int assertion) throws MPIException {
        run("MPI_Win_fence", (w, a, unused, none) -> w.fence(a), assertion, 0, 0);
    }

    /** {@code MPI_Win_start}: waits until every target of {@code group} has posted its window. */
    public void start(Group group, int assertion) throws MPIException {
        ProcessGroup targets = group == null ? null : group.core("MPI_Win_start");
        run("MPI_Win_start", w -> w.start(targets, assertion));
    }

    /** {@code MPI_Win_complete}: completes the access epoch's operations at their targets and tells them. */
    public void complete() throws MPIException {
        run("MPI_Win_complete", Window::complete);
    }

    /** {@code MPI_Win_post}: exposes the window to the origins of {@code group}. */
    public void post(Group group, int assertion) throws MPIException {
        ProcessGroup origins = group == null ? null : group.core("MPI_Win_post");
        run("MPI_Win_post", w -> w.post(origins, assertion));
    }

    /** {@code MPI_Win_wait}: waits until every origin of the exposure epoch has called complete. */
    public void waitFor() throws MPIException {
        run("MPI_Win_wait", Window::waitFor);
    }

    /** {@code MPI_Win_test}: {@link #waitFor} without waiting; true when the exposure epoch has ended. */
    public boolean test() throws MPIException {
        Window w = usable("MPI_Win_test");
        try {
            return w.test();
        } catch (DeviceException e) {
            throw Errors.raise(w, "MPI_Win_test", e);
        }
    }

    /** {@code MPI_Win_lock}: returns once the target has granted the lock. */
    public void lock(int lockType, int rank, int assertion) throws MPIException {
        if (!DirectCalls.lock(window, lockType, rank, assertion)) {
            run("MPI_Win_lock", Window::lock, lockType, rank, assertion);
        }
    }

    /** {@code MPI_Win_unlock}: returns once this process's operations are complete at the target. */
    public void unlock(int rank) throws MPIException {
        if (!DirectCalls.unlock(window, rank)) {
            run("MPI_Win_unlock", (w, r, unused, none) -> w.unlock(r), rank, 0, 0);
        }
    }

    /** {@code MPI_Win_lock_all}. */
    public void lockAll(int assertion) throws MPIException {
        run("MPI_Win_lock_all", w -> w.lockAll(assertion));
    }

    /** {@code MPI_Win_unlock_all}. */
    public void unlockAll() throws MPIException {
        run("MPI_Win_unlock_all", Window::unlockAll);
    }

    /** {@code MPI_Win_sync}. */
    public void sync() throws MPIException {
        run("MPI_Win_sync", Window::sync);
    }

    /** {@code MPI_Win_flush}. */
    public void flush(int rank) throws MPIException {
        if (DirectCalls.flush(window, rank)) {
            return;
        }
        run("MPI_Win_flush", w -> w.flush(rank));
    }

    /** {@code MPI_Win_flush_all}. */
    public void flushAll() throws MPIException {
        run("MPI_Win_flush_all", Window::flushAll);
    }

    /** {@code MPI_Win_flush_local}: operations are complete locally when their calls return. */
    public void flushLocal(int rank) throws MPIException {
        run("MPI_Win_flush_local", w -> w.flushLocal(rank));
    }

    /** {@code MPI_Win_flush_local_all}. */
    public void flushLocalAll() throws MPIException {
        run("MPI_Win_flush_local_all", Window::flushLocalAll);
    }
}
