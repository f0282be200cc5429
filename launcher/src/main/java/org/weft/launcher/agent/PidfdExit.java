package org.weft.launcher.agent;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Set;
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
    private static final Set<String> ARCHITECTURES = Set.of("amd64", "x86_64", "aarch64");

    /**
     * Where pidfds are opened: one daemon thread, off the thread that starts the ranks. Binding libc's calls costs
     * the launcher's JVM ~55 ms of CPU (FFM spins its stubs, interpreted), which delayed every rank after the first
     * by as much; {@link #prepare} starts the binding as the launcher starts, beside its parsing.
     */
    private static final Executor OPENER = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "weft-pidfd");
        thread.setDaemon(true);
        return thread;
    });

    private final int fd;

    private PidfdExit(int fd) {
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
            int fd = (int) (long) Calls.SYSCALL.invokeExact(SYS_PIDFD_OPEN, (int) process.pid(), 0);
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
            int result = (int) Calls.IOCTL.invokeExact(fd, PIDFD_GET_INFO, info);
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
            int ignored = (int) Calls.CLOSE.invokeExact(fd);
        } catch (Throwable e) {
            // nothing to do: the descriptor goes with the launcher
        }
    }

    /** libc's calls, bound on first use; none when native access is off (binding would print a warning). */
    private static final class Calls {
        static final boolean AVAILABLE;
        static final MethodHandle SYSCALL;
        static final MethodHandle IOCTL;
        static final MethodHandle CLOSE;

        static {
            MethodHandle syscall = null;
            MethodHandle ioctl = null;
            MethodHandle close = null;
            if (System.getProperty("os.name").equals("Linux") && ARCHITECTURES.contains(System.getProperty("os.arch"))
                    && PidfdExit.class.getModule().isNativeAccessEnabled()) {
                try {
                    Linker linker = Linker.nativeLinker();
                    SymbolLookup libc = linker.defaultLookup();
                    syscall = linker.downcallHandle(libc.find("syscall").orElseThrow(),
                            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT),
                            Linker.Option.firstVariadicArg(1));
                    ioctl = linker.downcallHandle(libc.find("ioctl").orElseThrow(),
                            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
                            Linker.Option.firstVariadicArg(2));
                    close = linker.downcallHandle(libc.find("close").orElseThrow(),
                            FunctionDescriptor.of(JAVA_INT, JAVA_INT));
                } catch (RuntimeException | LinkageError e) {
                    syscall = null;
                }
            }
            AVAILABLE = syscall != null;
            SYSCALL = syscall;
            IOCTL = ioctl;
            CLOSE = close;
        }
    }
}
