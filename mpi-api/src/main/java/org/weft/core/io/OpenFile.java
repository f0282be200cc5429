package org.weft.core.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.MpiRuntime;
import org.weft.core.coll.Collectives;
import org.weft.core.comm.Communicator;
import org.weft.core.comm.CreationCalls;
import org.weft.core.comm.Intracomms;
import org.weft.core.datatype.BaseType;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.ErrorMode;
import org.weft.core.error.MpiErrors;

/**
 * An open file ({@code MPI_File}): an ordinary file every rank opened through its own {@link FileChannel}, the
 * access mode, the view, the individual file pointer, the shared one ({@link SharedPointer}), hints and the
 * error handler ({@code ERRORS_RETURN} unless set otherwise, as MPI says for files). Opening duplicates the
 * communicator, so the file's collective exchanges never meet the program's messages.
 *
 * <p>Reads and writes take the user's buffer, count and type, pack or unpack them with the datatype engine
 * ({@link BufferMapping}) and move the packed bytes through the view: independently with {@link ChannelIo}, or
 * collectively with {@link TwoPhase}. They return the bytes moved, from which the status's count comes. The
 * methods are synchronized: threads of one rank may share a file.
 */
public final class OpenFile {
    public static final int MODE_CREATE = 1;
    public static final int MODE_RDONLY = 2;
    public static final int MODE_WRONLY = 4;
    public static final int MODE_RDWR = 8;
    public static final int MODE_DELETE_ON_CLOSE = 16;
    public static final int MODE_UNIQUE_OPEN = 32;
    public static final int MODE_EXCL = 64;
    public static final int MODE_APPEND = 128;
    public static final int MODE_SEQUENTIAL = 256;
    /** {@code MPI_DISPLACEMENT_CURRENT}: a MODE_SEQUENTIAL file's view starts where its shared pointer is. */
    public static final int DISPLACEMENT_CURRENT = -54278278;
    public static final int SEEK_SET = 600;
    public static final int SEEK_CUR = 602;
    public static final int SEEK_END = 604;

    static final TypeDescriptor BYTE = TypeDescriptor.predefined("MPI_BYTE", BaseType.BYTE, 1);

    private final Communicator comm;
    private final Path path;
    private final int amode;
    private final ChannelIo io;
    private final SharedPointer shared;
    private final Map<String, String> info = new LinkedHashMap<>();
    private ErrorMode errorMode = ErrorMode.RETURN;
    private ViewLayout view = new ViewLayout(0, BYTE, BYTE);
    /** Every rank's view, learnt at the first collective access after {@link #setView}; {@code null} before. */
    private ViewLayout[] peerViews;
    private CollectiveBuffer collectiveBuffer;
    private EagerWriteback writeback;
    private long pointer;
    private boolean atomic;
    private boolean closed;

    private OpenFile(Communicator comm, Path path, int amode, FileChannel channel, SharedPointer shared,
                     long pointer) {
        this.comm = comm;
        this.path = path;
        this.amode = amode;
        this.io = new ChannelIo(channel);
        this.shared = shared;
        this.pointer = pointer;
    }

    /**
     * {@code MPI_File_open}: collective over {@code parent}. Rank 0 opens first (and creates the file if asked), so
     * that {@code MODE_EXCL} fails on one rank only and the others learn why; then the others open. Every rank
     * fails with the same class if any failed: {@code ERR_AMODE}, {@code ERR_NOT_SAME} (different modes),
     * {@code ERR_NO_SUCH_FILE}, {@code ERR_FILE_EXISTS}, {@code ERR_ACCESS}, {@code ERR_BAD_FILE}, {@code ERR_IO}.
     */
    public static OpenFile open(Communicator parent, String name, int amode, Map<String, String> hints) {
        parent.checkUsable();
        if (parent.isInter()) {
            throw MpiErrors.error(ErrorClass.ERR_COMM, "a file is opened on an intracommunicator");
        }
        checkAmode(amode);
        Communicator comm = Intracomms.dup(parent);
        try {
            OpenFile file = openOnEveryRank(comm, name, amode);
            file.info.putAll(hints);
            return file;
        } catch (DeviceException e) {
            comm.free();
            throw e;
        }
    }

    private static OpenFile openOnEveryRank(Communicator comm, String name, int amode) {
        int[] modes = CreationCalls.allGather(comm, new int[] {amode});
        for (int mode : modes) {
            if (mode != amode) {
                throw MpiErrors.error(ErrorClass.ERR_NOT_SAME, "the ranks open " + name + " with different modes");
            }
        }
        Path path = path(name);
        FileChannel channel = null;
        int failed = 0;
        String why = "";
        long size = 0;
        if (comm.rank() == 0) {
            try {
                channel = FileChannel.open(path, options(amode, true));
                size = channel.size();
            } catch (IOException | DeviceException e) {
                failed = classOf(e);
                why = e.getMessage();
            }
        }
        int[] first = CreationCalls.allGather(comm, new int[] {failed, (int) size, (int) (size >>> 32)});
        failed = first[0];
        size = (first[1] & 0xFFFF_FFFFL) | ((long) first[2] << 32);
        if (failed == 0 && comm.rank() != 0) {
            try {
                channel = FileChannel.open(path, options(amode, false));
            } catch (IOException | DeviceException e) {
                failed = classOf(e);
                why = e.getMessage();
            }
        }
        int worst = Math.max(failed, max(CreationCalls.allGather(comm, new int[] {failed})));
        if (worst != 0) {
            closeQuietly(channel);
            throw MpiErrors.error(worst, "cannot open " + name + (why.isEmpty() ? " (failed on another rank)"
                    : ": " + why));
        }
        long start = (amode & MODE_APPEND) != 0 ? size : 0;
        SharedPointer shared = new SharedPointer(path, start);
        if (comm.rank() == 0) {
            shared.deleteStale();
        }
        Collectives.barrier(comm).run(); // nobody uses the shared pointer before a stale one is gone
        return new OpenFile(comm, path, amode, channel, shared, start);
    }

    private static Path path(String name) {
        if (name == null || name.isEmpty()) {
            throw MpiErrors.error(ErrorClass.ERR_BAD_FILE, "a file needs a name");
        }
        try {
            return Path.of(name.startsWith("ufs:") || name.startsWith("nfs:") ? name.substring(4) : name);
        } catch (InvalidPathException e) {
            throw MpiErrors.error(ErrorClass.ERR_BAD_FILE, "bad file name " + name + ": " + e.getMessage());
        }
    }

    private static Set<OpenOption> options(int amode, boolean creator) {
        Set<OpenOption> options = new java.util.HashSet<>();
        if ((amode & (MODE_RDONLY | MODE_RDWR)) != 0) {
            options.add(StandardOpenOption.READ);
        }
        if ((amode & (MODE_WRONLY | MODE_RDWR)) != 0) {
            options.add(StandardOpenOption.WRITE);
        }
        if (creator && (amode & MODE_EXCL) != 0) {
            options.add(StandardOpenOption.CREATE_NEW);
        } else if (creator && (amode & MODE_CREATE) != 0) {
            options.add(StandardOpenOption.CREATE);
        }
        return options;
    }

    /**
     * MPI 3.1 §13.2.1: exactly one of RDONLY, RDWR and WRONLY; no CREATE or EXCL with RDONLY; no RDWR with
     * SEQUENTIAL ({@code ERR_AMODE}).
     */
    static void checkAmode(int amode) {
        int access = Integer.bitCount(amode & (MODE_RDONLY | MODE_RDWR | MODE_WRONLY));
        String wrong = access != 1 ? "exactly one of MODE_RDONLY, MODE_RDWR and MODE_WRONLY is needed"
                : (amode & MODE_RDONLY) != 0 && (amode & (MODE_CREATE | MODE_EXCL)) != 0
                        ? "MODE_RDONLY cannot go with MODE_CREATE or MODE_EXCL"
                : (amode & MODE_RDWR) != 0 && (amode & MODE_SEQUENTIAL) != 0
                        ? "MODE_RDWR cannot go with MODE_SEQUENTIAL"
                : (amode & ~0x1FF) != 0 ? "unknown bits " + Integer.toHexString(amode & ~0x1FF) : null;
        if (wrong != null) {
            throw MpiErrors.error(ErrorClass.ERR_AMODE, "access mode " + amode + ": " + wrong);
        }
    }

    private static int classOf(Exception e) {
        if (e instanceof DeviceException d) {
            return d.errorClass();
        }
        return IoFailures.errorClass((IOException) e);
    }

    private static int max(int[] values) {
        int max = 0;
        for (int v : values) {
            max = Math.max(max, v);
        }
        return max;
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            // the open failed anyway; that error is the one to report
        }
    }

    /** {@code MPI_File_delete}: {@code ERR_NO_SUCH_FILE} if there is none, {@code ERR_ACCESS} if it may not be. */
    public static void delete(String name) {
        Path path = path(name);
        try {
            Files.delete(path);
        } catch (IOException e) {
            throw IoFailures.of("cannot delete", name, e);
        }
    }

    // ------------------------------------------------------------------ the file as an object

    public MpiRuntime runtime() {
        return comm.runtime();
    }

    /** The file's own communicator (a duplicate of the one it was opened on). */
    public Communicator communicator() {
        return comm;
    }

    public String name() {
        return path.toString();
    }

    public boolean isClosed() {
        return closed;
    }

    public synchronized ErrorMode errorMode() {
        return errorMode;
    }

    public synchronized void setErrorMode(ErrorMode mode) {
        this.errorMode = mode;
    }

    public int amode() {
        return amode;
    }

    public synchronized Map<String, String> info() {
        return new LinkedHashMap<>(info);
    }

    /** Every rank's current view: collective the first time after each {@link #setView} (see {@link TwoPhase}). */
    ViewLayout[] peerViews() {
        if (peerViews == null) {
            peerViews = CollectiveAccess.exchangeViews(comm, view);
        }
        return peerViews;
    }

    /**
     * The memory of this file's two-phase accesses, taken at the first one (a closed file's, if the rank has one
     * spare) and given back when the file closes.
     */
    CollectiveBuffer collectiveBuffer() {
        if (collectiveBuffer == null) {
            collectiveBuffer = comm.runtime().spareCollectiveBuffer().take("weft-io-writer-" + comm.rank());
        }
        return collectiveBuffer;
    }

    /** How this file's two-phase writes start the writeback of their windows: made at the first one. */
    EagerWriteback writeback() {
        if (writeback == null) {
            writeback = EagerWriteback.of(path, hint("weft_writeback"));
        }
        return writeback;
    }

    /** The hint {@code key}, or {@code null}. */
    synchronized String hint(String key) {
        return info.get(key);
    }

    public synchronized void setInfo(Map<String, String> hints) {
        usable();
        info.putAll(hints);
    }

    public synchronized boolean atomicity() {
        return atomic;
    }

    /**
     * {@code MPI_File_set_atomicity}: collective. In atomic mode an independent access holds a byte-range lock over
     * its span (shared for reads), and so does a collective one that is not aggregated; an aggregated one is atomic
     * by construction (see {@link TwoPhase}).
     */
    public synchronized void setAtomicity(boolean flag) {
        usable();
        Collectives.barrier(comm).run();
        atomic = flag;
    }

    private OpenFile usable() {
        if (closed) {
            throw MpiErrors.error(ErrorClass.ERR_FILE, "the file has been closed");
        }
        return this;
    }

    /**
     * {@code MPI_File_close}: collective; with {@code MODE_DELETE_ON_CLOSE} rank 0 deletes the file once every
     * rank closed it, and every rank returns after that.
     */
    public synchronized void close() {
        usable();
        closed = true;
        if (collectiveBuffer != null) {
            comm.runtime().spareCollectiveBuffer().give(collectiveBuffer); // for the next file
            collectiveBuffer = null;
        }
        if (writeback != null) {
            writeback.close();
        }
        IOException failure = null;
        try {
            io.channel().close();
        } catch (IOException e) {
            failure = e;
        }
        Collectives.barrier(comm).run();
        try {
            shared.close(comm.rank() == 0);
            if (comm.rank() == 0 && (amode & MODE_DELETE_ON_CLOSE) != 0) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        if ((amode & MODE_DELETE_ON_CLOSE) != 0) {
            Collectives.barrier(comm).run(); // the file is gone for every rank when close returns
        }
        comm.free();
        if (failure != null) {
            throw IoFailures.of("cannot close", name(), failure);
        }
    }

    // ------------------------------------------------------------------ size

    public synchronized long size() {
        usable();
        try {
            return io.channel().size();
        } catch (IOException e) {
            throw IoFailures.of("cannot stat", name(), e);
        }
    }

    /** {@code MPI_File_set_size} ({@code shrinks}) or {@code MPI_File_preallocate} (only grows): collective. */
    public synchronized void resize(long size, boolean shrinks) {
        usable();
        if (size < 0) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "negative file size " + size);
        }
        checkWritable();
        Collectives.barrier(comm).run();
        DeviceException failure = null;
        if (comm.rank() == 0) {
            try {
                long now = io.channel().size();
                if (size < now && shrinks) {
                    io.channel().truncate(size);
                } else if (size > now) {
                    io.channel().write(java.nio.ByteBuffer.allocate(1), size - 1);
                }
            } catch (IOException e) {
                failure = IoFailures.of("cannot resize", name(), e);
            }
        }
        Agreement.agree(comm, failure, "cannot resize " + name());
    }

    /** {@code MPI_File_sync}: collective; forces this rank's writes to the storage device; fails on every rank. */
    public synchronized void sync() {
        usable();
        DeviceException failure = null;
        try {
            io.channel().force(true);
        } catch (IOException e) {
            failure = IoFailures.of("cannot sync", name(), e);
        }
        Agreement.agree(comm, failure, "cannot sync " + name());
    }

    // ------------------------------------------------------------------ views and pointers

    /**
     * {@code MPI_File_set_view}: collective; both file pointers go back to 0. Only "native" is supported. A bad
     * view on one rank fails the call on every rank, which keep their old views. A MODE_SEQUENTIAL file takes
     * {@link #DISPLACEMENT_CURRENT}: the view starts at the file byte of the shared pointer.
     */
    public synchronized void setView(long disp, TypeDescriptor etype, TypeDescriptor filetype, String datarep) {
        usable();
        ViewLayout layout = null;
        DeviceException refused = null;
        boolean current = disp == DISPLACEMENT_CURRENT;
        try {
            if (!"native".equalsIgnoreCase(datarep)) {
                throw MpiErrors.error(ErrorClass.ERR_UNSUPPORTED_DATAREP, "data representation " + datarep
                        + ": Weft supports \"native\" only");
            }
            if (current && (amode & MODE_SEQUENTIAL) == 0) {
                throw MpiErrors.error(ErrorClass.ERR_ARG, "MPI_DISPLACEMENT_CURRENT is for a file opened"
                        + " MODE_SEQUENTIAL");
            }
            layout = current ? null : new ViewLayout(disp, etype, filetype);
        } catch (DeviceException e) {
            refused = e;
        }
        // also: every rank is done with the old shared pointer
        Agreement.agree(comm, refused, "cannot set the view of " + name());
        if ((amode & MODE_SEQUENTIAL) != 0) { // every rank, so that all take the same steps whatever disp they gave
            layout = current ? viewAtSharedPointer(etype, filetype) : agreedAfterSharedPointer(layout);
        }
        DeviceException failure = null;
        try {
            shared.reset(0, comm.rank() == 0);
        } catch (IOException e) {
            failure = IoFailures.of("cannot reset the shared pointer of", name(), e);
        }
        Agreement.agree(comm, failure, "cannot reset the shared pointer of " + name());
        view = layout;
        peerViews = null;
        pointer = 0;
    }

    /**
     * The view of {@code etype} and {@code filetype} from the file byte where the shared pointer is in the current
     * view ({@code MPI_DISPLACEMENT_CURRENT}), on every rank: collective, before the pointer is reset; fails on
     * every rank if it fails on one.
     */
    private ViewLayout viewAtSharedPointer(TypeDescriptor etype, TypeDescriptor filetype) {
        ViewLayout layout = null;
        DeviceException failure = null;
        try {
            layout = new ViewLayout(view.fileOffset(shared.fetchAndAdd(0) * view.etypeBytes()), etype, filetype);
        } catch (IOException e) {
            failure = IoFailures.of("cannot read the shared pointer of", name(), e);
        } catch (DeviceException e) {
            failure = e;
        }
        // also: every rank has read the pointer before rank 0 resets it
        Agreement.agree(comm, failure, "cannot set the view of " + name());
        return layout;
    }

    /** {@code layout}, once the ranks that asked for {@link #viewAtSharedPointer} have it. */
    private ViewLayout agreedAfterSharedPointer(ViewLayout layout) {
        Agreement.agree(comm, null, "cannot set the view of " + name());
        return layout;
    }

    public synchronized long disp() {
        return view.disp();
    }

    public synchronized TypeDescriptor etype() {
        return view.etype();
    }

    public synchronized TypeDescriptor filetype() {
        return view.filetype();
    }

    /** {@code MPI_File_get_position}: the individual pointer, in etypes of the view. */
    public synchronized long position() {
        usable();
        return pointer;
    }

    /** {@code MPI_File_seek}. */
    public synchronized void seek(long offset, int whence) {
        usable();
        pointer = sought(offset, whence, pointer);
    }

    /** {@code MPI_File_get_byte_offset}: the file byte of etype {@code offset} of the view. */
    public synchronized long byteOffset(long offset) {
        usable();
        if (offset < 0) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "negative offset " + offset);
        }
        return view.fileOffset(offset * view.etypeBytes());
    }

    /**
     * {@code MPI_File_seek_shared}: collective; every rank passes the same arguments (rank 0's count). Fails on
     * every rank if rank 0 cannot move the pointer.
     */
    public synchronized void seekShared(long offset, int whence) {
        usable();
        Collectives.barrier(comm).run();
        DeviceException failure = null;
        if (comm.rank() == 0) {
            try {
                shared.set(sought(offset, whence, shared.fetchAndAdd(0)));
            } catch (IOException e) {
                failure = IoFailures.of("cannot move the shared pointer of", name(), e);
            } catch (DeviceException e) {
                failure = e;
            }
        }
        Agreement.agree(comm, failure, "cannot move the shared pointer of " + name());
    }

    /** {@code MPI_File_get_position_shared}. */
    public synchronized long positionShared() {
        usable();
        try {
            return shared.fetchAndAdd(0);
        } catch (IOException e) {
            throw IoFailures.of("cannot read the shared pointer of", name(), e);
        }
    }

    private long sought(long offset, int whence, long current) {
        long target = switch (whence) {
            case SEEK_SET -> offset;
            case SEEK_CUR -> current + offset;
            case SEEK_END -> etypesToEnd() + offset;
            default -> throw MpiErrors.error(ErrorClass.ERR_ARG, "whence " + whence + " is none of SEEK_SET,"
                    + " SEEK_CUR and SEEK_END");
        };
        if (target < 0) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "seek to a negative offset " + target);
        }
        return target;
    }

    /** The etypes of the view that lie before the end of the file (where {@code SEEK_END} counts from). */
    private long etypesToEnd() {
        long end = size();
        if (end <= view.disp()) {
            return 0;
        }
        long lo = 0;
        long hi = end - view.disp(); // the view never holds more bytes than the file past disp
        long e = view.etypeBytes();
        hi = hi / e + 1;
        while (lo < hi) { // the first etype whose first byte lies at or past the end
            long mid = (lo + hi) >>> 1;
            if (view.fileOffset(mid * e) >= end) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    // ------------------------------------------------------------------ data access

    /** How an access finds its place in the stream of the view. */
    public enum Positioning { EXPLICIT, INDIVIDUAL, SHARED, ORDERED }

    /**
     * Reads ({@code write} false) or writes {@code count} items of {@code type} at etype {@code offset} of the view
     * ({@link Positioning#EXPLICIT}), or at a file pointer which it then advances; collectively over the file's
     * communicator if {@code collective} (always for {@link Positioning#ORDERED}). Returns the bytes moved. A
     * collective access fails on every rank if it fails on one ({@link Agreement}), bad arguments included.
     */
    public synchronized long access(Positioning positioning, long offset, Object buf, int count,
                                    TypeDescriptor type, boolean write, boolean collective) {
        return access(positioning, offset, buf, count, type, write, collective, null);
    }

    /**
     * {@link #access} that the caller {@code refused} already when that is not {@code null} (an argument only the
     * binding can judge): thrown at once by an independent access; a collective one takes part and fails on every
     * rank.
     */
    public synchronized long access(Positioning positioning, long offset, Object buf, int count,
                                    TypeDescriptor type, boolean write, boolean collective, DeviceException refused) {
        usable();
        collective |= positioning == Positioning.ORDERED; // its parts are agreed on as a collective's
        long bytes = 0;
        try {
            if (refused != null) {
                throw refused;
            }
            bytes = checkedAccess(positioning, offset, buf, count, type, write);
        } catch (DeviceException e) {
            if (!collective) {
                throw e;
            }
            refused = e; // the others wait for this rank in the collective: it takes part, and all fail
        }
        long etypes = bytes / view.etypeBytes();
        long at = switch (positioning) {
            case EXPLICIT -> offset;
            case INDIVIDUAL -> pointer;
            case SHARED -> sharedFetchAndAdd(etypes);
            case ORDERED -> orderedStart(etypes, refused);
        };
        long moved = write ? write(at * view.etypeBytes(), buf, count, type, bytes, collective, refused)
                : read(at * view.etypeBytes(), buf, count, type, bytes, collective, refused);
        if (positioning == Positioning.INDIVIDUAL) {
            pointer = at + moved / view.etypeBytes();
        }
        return moved;
    }

    /** Checks the arguments of an access against the file; returns its bytes. */
    private long checkedAccess(Positioning positioning, long offset, Object buf, int count, TypeDescriptor type,
                               boolean write) {
        if (write) {
            checkWritable();
        } else if ((amode & MODE_WRONLY) != 0) {
            throw MpiErrors.error(ErrorClass.ERR_ACCESS, "a read from " + name() + ", opened MODE_WRONLY");
        }
        if (positioning == Positioning.EXPLICIT && (amode & MODE_SEQUENTIAL) != 0) {
            throw MpiErrors.error(ErrorClass.ERR_UNSUPPORTED_OPERATION, "explicit offsets on a MODE_SEQUENTIAL file");
        }
        if (positioning == Positioning.EXPLICIT && offset < 0) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "negative offset " + offset);
        }
        return BufferMapping.checkedBytes(buf, count, type);
    }

    private void checkWritable() {
        if ((amode & MODE_RDONLY) != 0) {
            throw MpiErrors.error(ErrorClass.ERR_READ_ONLY, name() + " is open MODE_RDONLY");
        }
    }

    private long write(long position, Object buf, int count, TypeDescriptor type, long bytes, boolean collective,
                       DeviceException refused) {
        if (collective) {
            MemorySegment data = MemorySegment.NULL;
            try {
                data = refused == null ? BufferMapping.forSend(buf, count, type).asSlice(0, bytes) : data;
            } catch (DeviceException e) {
                refused = e;
            }
            TwoPhase.write(this, io, view, position, data, refused);
            return bytes;
        }
        MemorySegment data = BufferMapping.forSend(buf, count, type).asSlice(0, bytes);
        try {
            writeRuns(position, data);
        } catch (IOException e) {
            throw IoFailures.of("cannot write", name(), e);
        }
        return bytes;
    }

    /**
     * Writes {@code data} at stream byte {@code position} of the view one run at a time, as one indivisible step in
     * atomic mode ({@link #atomicLock}): an independent write, or a collective one that is not aggregated.
     */
    void writeRuns(long position, MemorySegment data) throws IOException {
        try (FileLock lock = atomicLock(position, data.byteSize(), false)) {
            io.writeView(view, position, data);
        }
    }

    /**
     * Reads {@code bytes} stream bytes from {@code position} of the view into {@code target}, under a shared lock in
     * atomic mode; returns the bytes before the end of the file. An independent read, or a collective one that is
     * not aggregated.
     */
    long readRuns(long position, long bytes, MemorySegment target) throws IOException {
        try (FileLock lock = atomicLock(position, bytes, true)) {
            return io.readView(view, position, bytes, target);
        }
    }

    private long read(long position, Object buf, int count, TypeDescriptor type, long bytes, boolean collective,
                      DeviceException refused) {
        MemorySegment into = MemorySegment.NULL;
        try {
            into = refused == null ? BufferMapping.forReceive(buf, count, type) : into;
        } catch (DeviceException e) {
            if (!collective) {
                throw e;
            }
            refused = e;
        }
        MemorySegment target = refused != null || into.byteSize() == bytes ? into : into.asSlice(0, bytes);
        long got;
        if (collective) {
            got = TwoPhase.read(this, io, view, position, target, refused); // throws on every rank if one refused
        } else {
            try {
                got = readRuns(position, bytes, target);
            } catch (IOException e) {
                throw IoFailures.of("cannot read", name(), e);
            }
        }
        BufferMapping.finishReceive(buf, count, type, into, got);
        return got;
    }

    /**
     * In atomic mode, a lock over the file bytes that the stream bytes {@code [position, position + bytes)} span
     * (shared for a read), so that the access is one indivisible step for every other atomic access; otherwise,
     * and for no bytes, {@code null} (which try-with-resources skips).
     */
    private FileLock atomicLock(long position, long bytes, boolean shared) throws IOException {
        if (!atomic || bytes == 0) {
            return null;
        }
        long[] span = view.span(position, bytes);
        return ChannelIo.lock(io.channel(), span[0], span[1] - span[0], shared);
    }

    private long sharedFetchAndAdd(long etypes) {
        try {
            return shared.fetchAndAdd(etypes);
        } catch (IOException e) {
            throw IoFailures.of("cannot move the shared pointer of", name(), e);
        }
    }

    /**
     * The start of this rank's part of an ordered access: rank 0 advances the shared pointer by every rank's
     * etypes at once, and each rank starts after the ranks below it. A rank that {@code refused} the access, or
     * rank 0 failing to move the pointer, makes every rank fail ({@link Agreement}).
     */
    private long orderedStart(long etypes, DeviceException refused) {
        String what = "cannot move the shared pointer of " + name();
        int[] counts = CreationCalls.allGather(comm, new int[] {(int) etypes, (int) (etypes >>> 32),
                refused == null ? 0 : refused.errorClass()});
        Agreement.throwIfAnyFailed(comm.size(), r -> counts[3 * r + 2], refused, what);
        long before = 0;
        long total = 0;
        for (int r = 0; r < comm.size(); r++) {
            long n = (counts[3 * r] & 0xFFFF_FFFFL) | ((long) counts[3 * r + 1] << 32);
            before += r < comm.rank() ? n : 0;
            total += n;
        }
        long base = 0;
        DeviceException failure = null;
        if (comm.rank() == 0) {
            try {
                base = sharedFetchAndAdd(total);
            } catch (DeviceException e) {
                failure = e;
            }
        }
        int[] bases = CreationCalls.allGather(comm, new int[] {(int) base, (int) (base >>> 32),
                failure == null ? 0 : failure.errorClass()});
        Agreement.throwIfAnyFailed(1, r -> bases[2], failure, what);
        return ((bases[0] & 0xFFFF_FFFFL) | ((long) bases[1] << 32)) + before;
    }
}
