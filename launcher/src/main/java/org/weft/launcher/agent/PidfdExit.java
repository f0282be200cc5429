package org.weft.launcher.agent;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * The wait status of a child process, kept by Linux for a pidfd (Linux 6.15's {@code PIDFD_GET_INFO} with
 * {@code PIDFD_INFO_EXIT}). Java's {@link Process#exitValue()} is 128 + N both for a child killed by signal N and
 * for one that exited with code 128 + N, and Java's own reaper collects the child's status before anyone else can;
 * a pidfd opened while the child lives still holds the real status after that. Unavailable (then {@link #open}
 * returns null) on other systems and architectures, on older kernels, and when the launcher's JVM runs without
 * native access ({@code bin/weftrun} enables it): the caller then says it cannot tell.
 */
final class PidfdExit implements AutoCloseable {
    /** {@code pidfd_open}: the same number on every Linux architecture (the generic syscall table). */
    private static final long SYS_PIDFD_OPEN = 434;
    /** {@code struct pidfd_info} as Linux 6.15 published it ({@code PIDFD_INFO_SIZE_VER0}). */
    private static final long INFO_SIZE = 64;
    private static final long INFO_MASK_OFFSET = 0;
    private static final long INFO_EXIT_CODE_OFFSET = 60;
    private static final long PIDFD_INFO_EXIT = 1L << 3;
    /** {@code _IOWR(0xFF, 11, struct pidfd_info)}, encoded as on x86-64 and AArch64. */
    private static final long PIDFD_GET_INFO = (3L << 30) | (INFO_SIZE << 16) | (0xFFL << 8) | 11;
    /** {@code ioctl}'s and {@code close}'s numbers, by architecture: every call goes through {@code syscall}. */
    private static final Map<String, long[]> IOCTL_AND_CLOSE = Map.of("amd64", new long[] {16, 3},
            "x86_64", new long[] {16, 3}, "aarch64", new long[] {29, 57});

    /**
     * Where pidfds are opened: one daemon thread, off the thread that starts the ranks. Binding a libc call costs
     * the launcher's JVM ~30 ms of CPU (FFM spins its stubs, interpreted), which delayed every rank after the first
     * by as much; {@link #prepare} starts the binding as the launcher starts, beside its parsing.
     */
    private static final Executor OPENER = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "weft-pidfd");
        thread.setDaemon(true);
        return thread;
    });

    private final long fd;

    private PidfdExit(long fd) {
        this.fd = fd;
    }

    /** Binds libc's calls now, in the background (the first {@link #openSoon} would, later). */
    static void prepare() {
        OPENER.execute(() -> {
            boolean ignored = Calls.AVAILABLE;
        });
    }

    /**
     * A pidfd of {@code process}, opened soon by another thread; completes with null as {@link #open} returns it (a
     * process that ended meanwhile has none: its end is then told by Java's status alone).
     */
    static CompletableFuture<PidfdExit> openSoon(Process process) {
        return CompletableFuture.supplyAsync(() -> open(process), OPENER);
    }

    /**
     * A pidfd of {@code process}, opened now; null when the system cannot give one, or when the process had already
     * ended (its pid might then name another process).
     */
    static PidfdExit open(Process process) {
        if (!Calls.AVAILABLE) {
            return null;
        }
        try {
            long fd = (long) Calls.SYSCALL.invokeExact(SYS_PIDFD_OPEN, process.pid(), 0L, 0L);
            if (fd < 0) {
                return null;
            }
            PidfdExit pidfd = new PidfdExit(fd);
            if (!process.isAlive()) { // reaped before the open: the fd may not be this child's
                pidfd.close();
                return null;
            }
            return pidfd;
        } catch (Throwable e) {
            return null;
        }
    }

    /** The ended process's wait status ({@code waitpid}'s), or -1 when the kernel does not give it. */
    int waitStatus() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = arena.allocate(INFO_SIZE);
            info.set(JAVA_LONG, INFO_MASK_OFFSET, PIDFD_INFO_EXIT);
            long result = (long) Calls.SYSCALL.invokeExact(Calls.IOCTL, fd, PIDFD_GET_INFO, info.address());
            if (result != 0 || (info.get(JAVA_LONG, INFO_MASK_OFFSET) & PIDFD_INFO_EXIT) == 0) {
                return -1;
            }
            return info.get(JAVA_INT, INFO_EXIT_CODE_OFFSET);
        } catch (Throwable e) {
            return -1;
        }
    }

    @Override
    public void close() {
        try {
            long ignored = (long) Calls.SYSCALL.invokeExact(Calls.CLOSE, fd, 0L, 0L);
        } catch (Throwable e) {
            // nothing to do: the descriptor goes with the launcher
        }
    }

    /**
     * libc's {@code syscall}, bound on first use, with the numbers of the calls made through it; none when native
     * access is off (binding would print a warning). One handle for the three calls: FFM's binding costs per handle
     * (three handles cost the launcher ~60 ms of CPU, one ~30).
     */
    private static final class Calls {
        static final boolean AVAILABLE;
        /** {@code long syscall(long number, long a, long b, long c)}. */
        static final MethodHandle SYSCALL;
        static final long IOCTL;
        static final long CLOSE;

        static {
            MethodHandle syscall = null;
            long[] numbers = IOCTL_AND_CLOSE.get(System.getProperty("os.arch"));
            if (System.getProperty("os.name").equals("Linux") && numbers != null
                    && PidfdExit.class.getModule().isNativeAccessEnabled()) {
                try {
                    Linker linker = Linker.nativeLinker();
                    syscall = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                            Linker.Option.firstVariadicArg(1));
                } catch (RuntimeException | LinkageError e) {
                    syscall = null;
                }
            }
            AVAILABLE = syscall != null;
            SYSCALL = syscall;
            IOCTL = AVAILABLE ? numbers[0] : -1;
            CLOSE = AVAILABLE ? numbers[1] : -1;
        }
    }
}
