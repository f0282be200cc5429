package org.weft.mm.module.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Objects;

import org.weft.adi.concurrent.CachedThreadLocal;

/**
 * Linux's cross-memory attach through FFM: {@code process_vm_readv} copies bytes out of another process's memory
 * into this one's in one system call, by the reader alone, and {@code process_vm_writev} the other way (a large
 * collective's writer copies a share into its reader's buffer while the reader reads the rest) (Open MPI's vader and MPICH's Nemesis use it for large
 * messages on one host). The kernel allows it between processes of one user (ptrace's "attach" check: no Yama
 * restriction, the peer dumpable); a container's seccomp profile may forbid it. Unavailable without native access
 * or off Linux; {@link #cause()} says why.
 *
 * <p>Each thread keeps its two {@code struct iovec}s (local, remote), so a read allocates nothing.
 */
final class CrossMemoryAttach {
    /** {@code struct iovec}: {@code void *iov_base; size_t iov_len}. */
    private static final long IOVEC = 16;
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final int EINTR = 4;

    private final MethodHandle readv;
    private final MethodHandle writev;
    private final String cause;
    /** Per thread: the local and the remote iovec, and the errno capture, sliced once. */
    private final CachedThreadLocal<Vectors> scratch = new CachedThreadLocal<>(Vectors::new);

    private record Vectors(MemorySegment local, MemorySegment remote, MemorySegment state) {
        Vectors() {
            this(Arena.ofAuto().allocate(IOVEC, 8));
        }

        private Vectors(MemorySegment local) {
            this(local, Arena.ofAuto().allocate(IOVEC, 8), Arena.ofAuto().allocate(CAPTURE));
        }
    }

    private CrossMemoryAttach(MethodHandle readv, MethodHandle writev, String cause) {
        this.readv = readv;
        this.writev = writev;
        this.cause = cause;
    }

    /**
     * Why reads cannot work in this process, known without binding anything (the system, native access); {@code
     * null} when {@link #bind} may succeed.
     */
    static String precondition() {
        if (!System.getProperty("os.name").equals("Linux")) {
            return "cross-memory attach needs Linux";
        }
        if (!CrossMemoryAttach.class.getModule().isNativeAccessEnabled()) {
            return "native access is not enabled (weftrun gives ranks --enable-native-access=ALL-UNNAMED)";
        }
        return null;
    }

    /** Binds {@code process_vm_readv}, and reads a few bytes of this process through it to see that it works. */
    static CrossMemoryAttach bind() {
        String unavailable = precondition();
        if (unavailable != null) {
            return new CrossMemoryAttach(null, null, unavailable);
        }
        try {
            Linker linker = Linker.nativeLinker();
            // ssize_t process_vm_readv(pid_t, const struct iovec *, unsigned long, const struct iovec *,
            //                          unsigned long, unsigned long)
            // and process_vm_writev, alike
            FunctionDescriptor signature = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG);
            MethodHandle read = linker.downcallHandle(linker.defaultLookup().find("process_vm_readv").orElseThrow(),
                    signature, Linker.Option.captureCallState("errno"));
            MethodHandle write = linker.downcallHandle(
                    linker.defaultLookup().find("process_vm_writev").orElseThrow(), signature,
                    Linker.Option.captureCallState("errno"));
            CrossMemoryAttach cma = new CrossMemoryAttach(read, write, null);
            return cma.selfTest();
        } catch (RuntimeException | LinkageError e) {
            return new CrossMemoryAttach(null, null, "libc's process_vm_readv is not reachable: " + e);
        }
    }

    /** {@code null} when reads work here, else why they do not. */
    String cause() {
        return cause;
    }

    /**
     * Copies {@code into.byteSize()} bytes from {@code address} in process {@code pid} into {@code into} (native
     * memory); returns 0 once all arrived, else the {@code errno} of the call that failed (a partial copy counts as
     * failed: the caller moves the message another way, which overwrites what came).
     */
    int read(long pid, long address, MemorySegment into) {
        return copy(readv, pid, address, into, 0, into.byteSize());
    }

    /** As {@link #read}, {@code bytes} into {@code into} at {@code at}. */
    int read(long pid, long address, MemorySegment into, long at, long bytes) {
        return copy(readv, pid, address, into, at, bytes);
    }

    /**
     * Copies {@code bytes} of {@code from} (native memory) at {@code at} to {@code address} in process {@code pid};
     * returns 0 once all went, else the {@code errno} of the call that failed, as {@link #read}.
     */
    int write(long pid, long address, MemorySegment from, long at, long bytes) {
        return copy(writev, pid, address, from, at, bytes);
    }

    /**
     * {@link #read} ({@code call}: {@code process_vm_readv}) or {@link #write} ({@code process_vm_writev}) of
     * {@code length} bytes of {@code local} at {@code at}.
     */
    private int copy(MethodHandle call, long pid, long address, MemorySegment local, long at, long length) {
        Objects.checkFromIndexSize(at, length, local.byteSize());
        Vectors v = scratch.get();
        long done = 0;
        while (done < length) {
            v.local.set(ValueLayout.JAVA_LONG, 0, local.address() + at + done);
            v.local.set(ValueLayout.JAVA_LONG, 8, length - done);
            v.remote.set(ValueLayout.JAVA_LONG, 0, address + done);
            v.remote.set(ValueLayout.JAVA_LONG, 8, length - done);
            long n;
            try {
                n = (long) call.invokeExact(v.state, (int) pid, v.local, 1L, v.remote, 1L, 0L);
            } catch (Throwable t) {
                throw new IllegalStateException(call == readv ? "process_vm_readv" : "process_vm_writev", t);
            }
            if (n <= 0) {
                int errno = n < 0 ? (int) ERRNO.get(v.state, 0L) : -1;
                if (errno == EINTR) {
                    continue;
                }
                return errno;
            }
            done += n;
        }
        return 0;
    }

    private CrossMemoryAttach selfTest() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment from = arena.allocate(64);
            MemorySegment into = arena.allocate(64);
            from.fill((byte) 0x5A);
            int errno = read(ProcessHandle.current().pid(), from.address(), into);
            if (errno != 0 || into.mismatch(from) >= 0) {
                return new CrossMemoryAttach(null, null, "process_vm_readv failed in this process (errno " + errno
                        + "): the kernel or a seccomp profile forbids cross-memory attach");
            }
            return this;
        }
    }
}
