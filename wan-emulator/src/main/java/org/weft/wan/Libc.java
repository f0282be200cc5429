package org.weft.wan;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few libc calls the emulator needs, through FFM: open, ioctl, read, write, ppoll, close and prctl. Calls that
 * can fail capture {@code errno} into a per-thread segment, so the hot path (read, write, ppoll) allocates nothing.
 */
final class Libc {
    static final int O_RDWR = 2;
    static final int O_NONBLOCK = 0x800;
    static final int EAGAIN = 11;
    static final int EINTR = 4;
    static final short POLLIN = 1;
    /** {@code struct pollfd}: {@code int fd; short events; short revents}. */
    static final long POLLFD_SIZE = 8;
    private static final int PR_SET_TIMERSLACK = 29;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_INT), CAPTURE_ERRNO);
    private static final MethodHandle IOCTL = downcall("ioctl", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS), CAPTURE_ERRNO,
            Linker.Option.firstVariadicArg(2));
    // read and write take raw addresses (of native memory the caller keeps alive): a slice per packet would allocate
    private static final MethodHandle READ = downcall("read", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle WRITE = downcall("write", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), CAPTURE_ERRNO);
    private static final MethodHandle PPOLL = downcall("ppoll", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS), CAPTURE_ERRNO);
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT));
    private static final MethodHandle CALLOC = downcall("calloc", FunctionDescriptor.of(ValueLayout.ADDRESS,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    private static final MethodHandle SCHED_SETSCHEDULER = downcall("sched_setscheduler",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS), CAPTURE_ERRNO);
    private static final int SCHED_FIFO = 1;
    private static final MethodHandle PRCTL = downcall("prctl", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG), Linker.Option.firstVariadicArg(1));

    private static final ThreadLocal<MemorySegment> ERRNO_STATE =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE));

    private Libc() {
    }

    /** {@code open(path, flags)}: a file descriptor. */
    static int open(String path, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ERRNO_STATE.get();
            int fd = (int) OPEN.invokeExact(state, arena.allocateFrom(path), flags);
            if (fd < 0) {
                throw new NativeCallException("open " + path, errno(state));
            }
            return fd;
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("open " + path, t);
        }
    }

    /** {@code ioctl(fd, request, argument)}, failing with errno. */
    static void ioctl(int fd, long request, MemorySegment argument, String what) {
        try {
            MemorySegment state = ERRNO_STATE.get();
            int rc = (int) IOCTL.invokeExact(state, fd, request, argument);
            if (rc < 0) {
                throw new NativeCallException(what, errno(state));
            }
        } catch (NativeCallException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(what, t);
        }
    }

    /** {@code read(fd, address, length)}: bytes read, or minus errno. */
    static long read(int fd, long address, long length) {
        return transfer(READ, fd, address, length);
    }

    /** {@code write(fd, address, length)}: bytes written, or minus errno. */
    static long write(int fd, long address, long length) {
        return transfer(WRITE, fd, address, length);
    }

    private static long transfer(MethodHandle readOrWrite, int fd, long address, long length) {
        try {
            MemorySegment state = ERRNO_STATE.get();
            long n = (long) readOrWrite.invokeExact(state, fd, address, length);
            return n >= 0 ? n : -errno(state);
        } catch (Throwable t) {
            throw new IllegalStateException("read/write", t);
        }
    }

    /**
     * {@code ppoll(fds, count, timeout, NULL)} with a {@code struct timespec} the caller filled: ready descriptors,
     * 0 on timeout, minus errno on failure ({@code -EINTR} when a signal came).
     */
    static int ppoll(MemorySegment fds, long count, MemorySegment timespec) {
        try {
            MemorySegment state = ERRNO_STATE.get();
            int n = (int) PPOLL.invokeExact(state, fds, count, timespec, MemorySegment.NULL);
            return n >= 0 ? n : -errno(state);
        } catch (Throwable t) {
            throw new IllegalStateException("ppoll", t);
        }
    }

    static void close(int fd) {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException("close", t);
        }
    }

    /**
     * Sets this thread's timer slack: how late the kernel may wake a sleeping {@code ppoll} (50 µs by default), which
     * is the precision of the emulated delay.
     */
    static void setTimerSlack(long nanos) {
        try {
            int ignored = (int) PRCTL.invokeExact(PR_SET_TIMERSLACK, nanos);
        } catch (Throwable t) {
            throw new IllegalStateException("prctl", t);
        }
    }

    /**
     * {@code bytes} of zeroed native memory for the life of the process. Unlike an {@code Arena}'s, which writes
     * every byte, a large {@code calloc} maps fresh pages: memory is only taken as the emulator uses it.
     */
    static MemorySegment callocForever(long bytes) {
        try {
            MemorySegment memory = (MemorySegment) CALLOC.invokeExact(1L, bytes);
            if (memory.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError("calloc " + bytes + " bytes");
            }
            return memory.reinterpret(bytes);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("calloc", t);
        }
    }

    /**
     * Puts the calling thread (only it: Linux schedules threads) in the real-time class {@code SCHED_FIFO} at
     * {@code priority}: it then runs as soon as it wakes, ahead of the machine's ordinary work. Returns 0, or the
     * errno (EPERM without root).
     */
    static int runInRealTime(int priority) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = ERRNO_STATE.get();
            MemorySegment param = arena.allocate(ValueLayout.JAVA_INT);
            param.set(ValueLayout.JAVA_INT, 0, priority);
            int rc = (int) SCHED_SETSCHEDULER.invokeExact(state, 0, SCHED_FIFO, param);
            return rc == 0 ? 0 : errno(state);
        } catch (Throwable t) {
            throw new IllegalStateException("sched_setscheduler", t);
        }
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    private static MethodHandle downcall(String symbol, FunctionDescriptor descriptor, Linker.Option... options) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(symbol)
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + symbol)), descriptor, options);
    }

    /** A libc call that failed, with its errno. */
    static final class NativeCallException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NativeCallException(String what, int errno) {
            super(what + " failed: errno " + errno);
        }
    }
}
