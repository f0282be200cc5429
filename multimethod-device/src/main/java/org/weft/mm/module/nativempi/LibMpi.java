package org.weft.mm.module.nativempi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.weft.adi.NativeCollectives.Element;
import org.weft.adi.NativeCollectives.Operation;
import org.weft.adi.concurrent.ReentrantSpinLock;

/**
 * The MPI functions this module calls, bound through FFM for one library and one {@link MpiFlavour}. Handles travel
 * as {@code long} whatever their C type, so the code above is the same for every implementation.
 *
 * <p>Every call takes one lock, the {@link #gate()}, so concurrent senders and the poller never enter libmpi together
 * (the module asks for {@code MPI_THREAD_SERIALIZED}: cheaper than Open MPI's own locking at
 * {@code MPI_THREAD_MULTIPLE}). It is reentrant, so the module holds it across a whole poll or send and each call
 * inside costs a compare instead of a locked instruction. The calls
 * made on the hot path (Isend, Irecv, Test, Testsome) are bound as <em>critical</em>: they return quickly
 * and never call back into Java, so the JVM skips the thread-state transition.
 */
final class LibMpi {
    /** Marks a handle argument in a descriptor below; replaced by the flavour's layout. */
    private static final ValueLayout HANDLE = JAVA_LONG.withName("handle");
    /**
     * A pointer argument of the calls on the message path, passed as its address in a 64-bit integer (the same
     * register as a pointer on x86-64 and aarch64): a memory segment argument makes every call acquire and release
     * the segment's shared session, two atomic instructions each (12 per {@code MPI_Test}, measured at a tenth of a
     * nativempi ping-pong). The module keeps that memory alive while libmpi may use it.
     */
    private static final ValueLayout POINTER = JAVA_LONG.withName("pointer");

    /** The library initialised in this process (at most one): the one {@link MessagePath} calls. */
    private static LibMpi messagePathOwner;

    private final NativeLibrary library;
    private final MpiFlavour flavour;
    private final ReentrantSpinLock gate = new ReentrantSpinLock();

    private final MethodHandle initialized;
    private final MethodHandle finalized;
    private final MethodHandle initThread;
    private final MethodHandle finalizeCall;
    private final MethodHandle commDup;
    private final MethodHandle commFree;
    private final MethodHandle commRank;
    private final MethodHandle commSize;
    private final MethodHandle commSetErrhandler;
    private final MethodHandle bcast;
    private final MethodHandle cancel;
    private final MethodHandle waitCall;
    private final MethodHandle errorString;
    private final MethodHandle errorClass;
    private final MethodHandle commGroup;
    private final MethodHandle groupIncl;
    private final MethodHandle groupFree;
    private final MethodHandle commCreateGroup;

    private LibMpi(NativeLibrary library, MpiFlavour flavour) {
        this.library = library;
        this.flavour = flavour;
        initialized = bind("MPI_Initialized", false, ADDRESS);
        finalized = bind("MPI_Finalized", false, ADDRESS);
        initThread = bind("MPI_Init_thread", false, ADDRESS, ADDRESS, JAVA_INT, ADDRESS);
        finalizeCall = bind("MPI_Finalize", false);
        commDup = bind("MPI_Comm_dup", false, HANDLE, ADDRESS);
        commFree = bind("MPI_Comm_free", false, ADDRESS);
        commRank = bind("MPI_Comm_rank", false, HANDLE, ADDRESS);
        commSize = bind("MPI_Comm_size", false, HANDLE, ADDRESS);
        commSetErrhandler = bind("MPI_Comm_set_errhandler", false, HANDLE, HANDLE);
        bcast = bind("MPI_Bcast", false, ADDRESS, JAVA_INT, HANDLE, JAVA_INT, HANDLE);
        cancel = bind("MPI_Cancel", false, ADDRESS);
        waitCall = bind("MPI_Wait", false, ADDRESS, ADDRESS);
        errorString = bind("MPI_Error_string", false, JAVA_INT, ADDRESS, ADDRESS);
        errorClass = bind("MPI_Error_class", false, JAVA_INT, ADDRESS);
        commGroup = bind("MPI_Comm_group", false, HANDLE, ADDRESS);
        groupIncl = bind("MPI_Group_incl", false, HANDLE, JAVA_INT, ADDRESS, ADDRESS);
        groupFree = bind("MPI_Group_free", false, ADDRESS);
        commCreateGroup = bind("MPI_Comm_create_group", false, HANDLE, HANDLE, JAVA_INT, ADDRESS);
    }

    /**
     * Opens {@code library} and binds it. Throws {@link UnsatisfiedLinkError} when it cannot be opened or is not an
     * MPI we know (the message says which).
     */
    static LibMpi open(String library) {
        NativeLibrary lib = NativeLibrary.open(library);
        String version = libraryVersion(lib);
        MpiFlavour flavour = MpiFlavour.of(version, lib);
        if (flavour == null) {
            throw new UnsatisfiedLinkError(library + " is an MPI this module has no handle table for: "
                    + firstLine(version));
        }
        return new LibMpi(lib, flavour);
    }

    /** {@code MPI_Get_library_version}, which the standard allows before MPI_Init. */
    private static String libraryVersion(NativeLibrary lib) {
        Linker linker = NativeLibrary.linker();
        MethodHandle call = linker.downcallHandle(lib.require("MPI_Get_library_version"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = arena.allocate(MpiFlavour.MAX_LIBRARY_VERSION_STRING);
            MemorySegment length = arena.allocate(JAVA_INT);
            int rc = (int) call.invokeExact(text, length);
            if (rc != MpiFlavour.SUCCESS) {
                throw new UnsatisfiedLinkError(lib.name() + ": MPI_Get_library_version returned " + rc);
            }
            return text.getString(0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * The lock every call takes, for a caller to hold across several calls and the work between them (a poll and
     * the deliveries it makes; a send and the copy before it): one locked instruction for all of them.
     */
    ReentrantSpinLock gate() {
        return gate;
    }

    /** The library's name as it was opened ({@code libmpi.so.40}). */
    String name() {
        return library.name();
    }

    MpiFlavour flavour() {
        return flavour;
    }

    String libraryName() {
        return library.name();
    }

    /** MPI_Initialized or MPI_Finalized: whether this process has already started (or ended) MPI. */
    boolean initialized(boolean orFinalized) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment flag = arena.allocate(JAVA_INT);
            check("MPI_Initialized", (int) initialized.invokeExact(flag));
            if (flag.get(JAVA_INT, 0) != 0 || !orFinalized) {
                return flag.get(JAVA_INT, 0) != 0;
            }
            check("MPI_Finalized", (int) finalized.invokeExact(flag));
            return flag.get(JAVA_INT, 0) != 0;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** MPI_Init_thread(NULL, NULL, required, &provided); returns the thread level provided. */
    int initThread(int required) {
        claimMessagePath();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment provided = arena.allocate(JAVA_INT);
            check("MPI_Init_thread", (int) initThread.invokeExact(MemorySegment.NULL, MemorySegment.NULL, required,
                    provided));
            return provided.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    void finalizeMpi() {
        try {
            check("MPI_Finalize", (int) finalizeCall.invokeExact());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * MPI_Comm_set_errhandler of MPI_ERRORS_RETURN on {@code comm}: Open MPI 4.1's {@code MPI_Test} reports a failed
     * nonblocking collective (a gather's truncated block) on {@code MPI_COMM_WORLD}'s handler, whatever the request's
     * communicator, and the default one aborts the process.
     */
    void returnErrors(long comm) {
        try {
            check("MPI_Comm_set_errhandler", (int) commSetErrhandler.invokeExact(comm, flavour.errorsReturn()));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** MPI_Comm_dup, with MPI_ERRORS_RETURN set on the copy: an error is a return code, never an abort. */
    long commDup(long comm) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(flavour.handleLayout());
            check("MPI_Comm_dup", (int) commDup.invokeExact(comm, out));
            long copy = readHandle(out, 0);
            check("MPI_Comm_set_errhandler", (int) commSetErrhandler.invokeExact(copy, flavour.errorsReturn()));
            return copy;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    void commFree(long comm) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment handle = arena.allocate(flavour.handleLayout());
            writeHandle(handle, 0, comm);
            check("MPI_Comm_free", (int) commFree.invokeExact(handle));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * MPI_Comm_create_group of the processes of {@code comm} at {@code ranks} (in that order), on {@code tag};
     * collective over them. The new communicator returns errors ({@code MPI_ERRORS_RETURN}) instead of aborting.
     */
    long commCreateGroup(long comm, int[] ranks, int tag) {
        gate.lock();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment parentGroup = arena.allocate(flavour.handleLayout());
            MemorySegment group = arena.allocate(flavour.handleLayout());
            MemorySegment created = arena.allocate(flavour.handleLayout());
            check("MPI_Comm_group", (int) commGroup.invokeExact(comm, parentGroup));
            check("MPI_Group_incl", (int) groupIncl.invokeExact(readHandle(parentGroup, 0), ranks.length,
                    arena.allocateFrom(JAVA_INT, ranks), group));
            int rc = (int) commCreateGroup.invokeExact(comm, readHandle(group, 0), tag, created);
            check("MPI_Group_free", (int) groupFree.invokeExact(group));
            check("MPI_Group_free", (int) groupFree.invokeExact(parentGroup));
            check("MPI_Comm_create_group", rc);
            long copy = readHandle(created, 0);
            check("MPI_Comm_set_errhandler", (int) commSetErrhandler.invokeExact(copy, flavour.errorsReturn()));
            return copy;
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            gate.unlock();
        }
    }

    /** The error class of the library's error code {@code code} (MPI_Error_class), in the library's numbering. */
    int errorClassOf(int code) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            int rc = (int) errorClass.invokeExact(code, out);
            return rc == MpiFlavour.SUCCESS ? out.get(JAVA_INT, 0) : code;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** MPI_Comm_rank ({@code size == false}) or MPI_Comm_size. */
    int commRankOrSize(long comm, boolean size) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT);
            int rc = size ? (int) commSize.invokeExact(comm, out) : (int) commRank.invokeExact(comm, out);
            check(size ? "MPI_Comm_size" : "MPI_Comm_rank", rc);
            return out.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** MPI_Bcast of {@code data} from native rank {@code root}; returns what the root sent (every rank passes as many bytes). */
    byte[] broadcast(byte[] data, int root, long comm) {
        gate.lock(); // another thread of this process (a window's service) may poll libmpi meanwhile
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocateFrom(JAVA_BYTE, data);
            check("MPI_Bcast", (int) bcast.invokeExact(buffer, data.length, flavour.byteType(), root, comm));
            return buffer.toArray(JAVA_BYTE);
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            gate.unlock();
        }
    }

    /** MPI_Allreduce of one {@code int} by MPI_MIN on {@code comm} (blocking, collective): the least value given. */
    int leastOf(int value, long comm) {
        gate.lock();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cell = arena.allocateFrom(JAVA_INT, value);
            check("MPI_Allreduce", (int) BlockingCollectivePath.ALLREDUCE.invokeExact(flavour.inPlace(),
                    cell.address(), 1, flavour.datatype(Element.INT), flavour.op(Operation.MIN), comm));
            return cell.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            gate.unlock();
        }
    }

    /** MPI_Send of {@code count} bytes. Returns the MPI code. */
    int send(MemorySegment buffer, int count, int dest, int tag, long comm) {
        gate.lock();
        try {
            return (int) MessagePath.SEND.invokeExact(address(buffer), count, flavour.byteType(), dest, tag, comm);
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            gate.unlock();
        }
    }

    /** MPI_Isend of {@code count} bytes; the request handle is written at {@code request}. Returns the MPI code. */
    int isend(MemorySegment buffer, int count, int dest, int tag, long comm, MemorySegment request) {
        gate.lock();
        try {
            return (int) MessagePath.ISEND.invokeExact(address(buffer), count, flavour.byteType(), dest, tag, comm,
                    address(request));
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            gate.unlock();
        }
    }

    /** MPI_Testsome; the number completed is written at {@code outCount} (MPI_UNDEFINED when none is active). */
    int testsome(int count, MemorySegment requests, MemorySegment outCount, MemorySegment indices,
            MemorySegment statuses) {
        gate.lock();
        try {
            return (int) MessagePath.TESTSOME.invokeExact(count, address(requests), address(outCount), address(indices),
                    address(statuses));
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            gate.unlock();
        }
    }

    /**
     * MPI_Irecv of up to {@code count} bytes from native rank {@code source} ({@link MpiFlavour#anySource()} for any);
     * the request handle is written at {@code request}.
     */
    int irecv(MemorySegment buffer, int count, int source, int tag, long comm, MemorySegment request) {
        gate.lock();
        try {
            return (int) MessagePath.IRECV.invokeExact(address(buffer), count, flavour.byteType(), source, tag, comm,
                    address(request));
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            gate.unlock();
        }
    }

    /** MPI_Test of the request at {@code request}; completion is written at {@code flag}, the status at {@code status}. */
    int test(MemorySegment request, MemorySegment flag, MemorySegment status) {
        gate.lock();
        try {
            return (int) MessagePath.TEST.invokeExact(address(request), address(flag), address(status));
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            gate.unlock();
        }
    }

    /** MPI_Cancel then MPI_Wait of the request at {@code request} (a posted receive nobody will match). */
    void cancelAndWait(MemorySegment request, MemorySegment status) {
        gate.lock();
        try {
            check("MPI_Cancel", (int) cancel.invokeExact(request));
            check("MPI_Wait", (int) waitCall.invokeExact(request, status));
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            gate.unlock();
        }
    }

    /** The text MPI_Error_string gives for {@code code}. */
    String errorString(int code) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = arena.allocate(MpiFlavour.MAX_ERROR_STRING);
            MemorySegment length = arena.allocate(JAVA_INT);
            int rc = (int) errorString.invokeExact(code, text, length);
            return rc == MpiFlavour.SUCCESS ? text.getString(0) + " (" + code + ")" : "MPI error " + code;
        } catch (Throwable t) {
            return "MPI error " + code;
        }
    }

    long readHandle(MemorySegment at, long offset) {
        ValueLayout layout = flavour.handleLayout();
        return layout == JAVA_INT ? at.get(JAVA_INT, offset) : at.get(JAVA_LONG, offset);
    }

    void writeHandle(MemorySegment at, long offset, long handle) {
        if (flavour.handleLayout() == JAVA_INT) {
            at.set(JAVA_INT, offset, (int) handle);
        } else {
            at.set(JAVA_LONG, offset, handle);
        }
    }

    /** Throws {@link MpiCallException} naming {@code function} and the library's message when {@code rc} is not 0. */
    void check(String function, int rc) {
        if (rc != MpiFlavour.SUCCESS) {
            throw new MpiCallException(function + " failed: " + errorString(rc));
        }
    }

    /**
     * Makes this library the one whose calls {@link MessagePath} binds: a process initialises one MPI, once. A second
     * library initialised in the same process is refused (its calls would go to the first).
     */
    private void claimMessagePath() {
        synchronized (LibMpi.class) { // the lock messagePathOwner() reads under
            if (messagePathOwner != null && messagePathOwner != this) {
                throw new IllegalStateException("this process already initialised " + messagePathOwner.libraryName()
                        + "; one MPI per process");
            }
            messagePathOwner = this;
        }
    }

    /** The library {@link #claimMessagePath} named, read under the same lock (the first call may be another thread's). */
    private static synchronized LibMpi messagePathOwner() {
        if (messagePathOwner == null) {
            throw new IllegalStateException("libmpi called before MPI_Init");
        }
        return messagePathOwner;
    }

    /**
     * The calls on the message path, bound as constants: a method handle in an instance field is not a constant to
     * the JIT, so each call through one went through the handle's generic invoker (type and customisation checks
     * measured at ~5 % of a nativempi ping-pong); a {@code static final} one compiles to a direct call of the
     * downcall stub. Bound when first used, for the library {@link #claimMessagePath} named at MPI_Init.
     */
    private static final class MessagePath {
        private static final LibMpi LIBRARY = messagePathOwner();
        // Not critical: a blocking send may wait in libmpi for room (while libmpi keeps receiving).
        static final MethodHandle SEND = LIBRARY.bind("MPI_Send", false, POINTER, JAVA_INT, HANDLE, JAVA_INT, JAVA_INT,
                HANDLE);
        static final MethodHandle ISEND = LIBRARY.bind("MPI_Isend", true, POINTER, JAVA_INT, HANDLE, JAVA_INT,
                JAVA_INT, HANDLE, POINTER);
        static final MethodHandle TESTSOME = LIBRARY.bind("MPI_Testsome", true, JAVA_INT, POINTER, POINTER, POINTER,
                POINTER);
        static final MethodHandle IRECV = LIBRARY.bind("MPI_Irecv", true, POINTER, JAVA_INT, HANDLE, JAVA_INT,
                JAVA_INT, HANDLE, POINTER);
        static final MethodHandle TEST = LIBRARY.bind("MPI_Test", true, POINTER, POINTER, POINTER);

        private MessagePath() {
        }
    }

    /**
     * The nonblocking collectives and the test of their requests, bound as constants for the library initialised (as
     * {@link MessagePath}) when first used. Critical: each starts a collective or tests one and returns (the members
     * wait in Weft's progress loop, not in libmpi). Buffers and the request cell are {@link #POINTER}s.
     */
    static final class CollectivePath {
        private static final LibMpi LIBRARY = messagePathOwner();
        static final MethodHandle IBARRIER = LIBRARY.bind("MPI_Ibarrier", true, HANDLE, POINTER);
        static final MethodHandle IBCAST = LIBRARY.bind("MPI_Ibcast", true, POINTER, JAVA_INT, HANDLE, JAVA_INT, HANDLE,
                POINTER);
        static final MethodHandle IREDUCE = LIBRARY.bind("MPI_Ireduce", true, POINTER, POINTER, JAVA_INT, HANDLE,
                HANDLE, JAVA_INT, HANDLE, POINTER);
        static final MethodHandle IALLREDUCE = LIBRARY.bind("MPI_Iallreduce", true, POINTER, POINTER, JAVA_INT,
                HANDLE, HANDLE, HANDLE, POINTER);
        static final MethodHandle IREDUCE_SCATTER_BLOCK = LIBRARY.bind("MPI_Ireduce_scatter_block", true, POINTER,
                POINTER, JAVA_INT, HANDLE, HANDLE, HANDLE, POINTER);
        static final MethodHandle IALLGATHER = LIBRARY.bind("MPI_Iallgather", true, POINTER, JAVA_INT, HANDLE,
                POINTER, JAVA_INT, HANDLE, HANDLE, POINTER);
        static final MethodHandle IALLTOALL = LIBRARY.bind("MPI_Ialltoall", true, POINTER, JAVA_INT, HANDLE,
                POINTER, JAVA_INT, HANDLE, HANDLE, POINTER);
        static final MethodHandle IGATHER = LIBRARY.bind("MPI_Igather", true, POINTER, JAVA_INT, HANDLE, POINTER,
                JAVA_INT, HANDLE, JAVA_INT, HANDLE, POINTER);
        static final MethodHandle ISCATTER = LIBRARY.bind("MPI_Iscatter", true, POINTER, JAVA_INT, HANDLE, POINTER,
                JAVA_INT, HANDLE, JAVA_INT, HANDLE, POINTER);
        static final MethodHandle TEST = LIBRARY.bind("MPI_Test", true, POINTER, POINTER, POINTER);

        private CollectivePath() {
        }
    }

    /**
     * The blocking collectives, bound as constants for the library initialised (as {@link MessagePath}) when first
     * used. Not critical: each waits in libmpi for the other members (a critical call would hold up the JVM's
     * safepoints, the collector's among them, for as long).
     */
    static final class BlockingCollectivePath {
        private static final LibMpi LIBRARY = messagePathOwner();
        static final MethodHandle BARRIER = LIBRARY.bind("MPI_Barrier", false, HANDLE);
        static final MethodHandle BCAST = LIBRARY.bind("MPI_Bcast", false, POINTER, JAVA_INT, HANDLE, JAVA_INT,
                HANDLE);
        static final MethodHandle REDUCE = LIBRARY.bind("MPI_Reduce", false, POINTER, POINTER, JAVA_INT, HANDLE,
                HANDLE, JAVA_INT, HANDLE);
        static final MethodHandle ALLREDUCE = LIBRARY.bind("MPI_Allreduce", false, POINTER, POINTER, JAVA_INT,
                HANDLE, HANDLE, HANDLE);
        static final MethodHandle REDUCE_SCATTER_BLOCK = LIBRARY.bind("MPI_Reduce_scatter_block", false, POINTER,
                POINTER, JAVA_INT, HANDLE, HANDLE, HANDLE);
        static final MethodHandle ALLGATHER = LIBRARY.bind("MPI_Allgather", false, POINTER, JAVA_INT, HANDLE,
                POINTER, JAVA_INT, HANDLE, HANDLE);
        static final MethodHandle ALLTOALL = LIBRARY.bind("MPI_Alltoall", false, POINTER, JAVA_INT, HANDLE,
                POINTER, JAVA_INT, HANDLE, HANDLE);
        static final MethodHandle GATHER = LIBRARY.bind("MPI_Gather", false, POINTER, JAVA_INT, HANDLE, POINTER,
                JAVA_INT, HANDLE, JAVA_INT, HANDLE);
        static final MethodHandle SCATTER = LIBRARY.bind("MPI_Scatter", false, POINTER, JAVA_INT, HANDLE, POINTER,
                JAVA_INT, HANDLE, JAVA_INT, HANDLE);

        private BlockingCollectivePath() {
        }
    }

    private MethodHandle bind(String function, boolean critical, MemoryLayout... arguments) {
        MemoryLayout[] native_ = new MemoryLayout[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            native_[i] = arguments[i] == HANDLE ? flavour.handleLayout() : arguments[i];
        }
        Linker.Option[] options = critical ? new Linker.Option[] {Linker.Option.critical(false)}
                : new Linker.Option[0];
        MethodHandle raw = NativeLibrary.linker().downcallHandle(library.require(function),
                FunctionDescriptor.of(JAVA_INT, native_), options);
        // Integer handles (MPICH) are passed as long in Java too: one calling code for every flavour.
        MethodType uniform = raw.type();
        for (int i = 0; i < arguments.length; i++) {
            if (arguments[i] == HANDLE) {
                uniform = uniform.changeParameterType(i, long.class);
            }
        }
        return MethodHandles.explicitCastArguments(raw, uniform);
    }

    /** The address of native memory for a {@link #POINTER} argument; a heap segment has none libmpi could keep. */
    private static long address(MemorySegment memory) {
        if (!memory.isNative()) {
            throw new IllegalArgumentException("libmpi needs native memory, not " + memory);
        }
        return memory.address();
    }

    /** {@code t} as an unchecked exception to throw (an {@link Error} is thrown as it is). */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }
}
