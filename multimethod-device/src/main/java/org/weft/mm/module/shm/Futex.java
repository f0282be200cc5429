package org.weft.mm.module.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Linux's futex through FFM ({@code syscall(SYS_futex, …)}), on an int in a file that processes map together (the
 * doorbell's sleeping flag in an inbox header): a thread sleeps while the int holds what it expects, until another
 * process changes it and wakes it, or a timeout. Unlike the doorbell's datagram, whose {@code select} counts
 * milliseconds, it sleeps for any time, so a waiter's short parks can be ended by whoever it waits for. Shared
 * (not {@code FUTEX_PRIVATE}): the kernel keys the int by file and offset, the same in every mapping.
 * Unavailable off Linux on x86-64 or AArch64, without native access, or where a seccomp profile forbids it;
 * {@link #cause()} says why.
 *
 * <p>Binding costs a fresh JVM ~60 ms of CPU (FFM spins its stubs), so a process binds it once, on a thread of its
 * own, when it first maps memory it shares with other ranks ({@link #bindInBackground}: a collective segment,
 * {@code MPI.newByteBuffer}'s heap, a shared window): only then do its short parks need to be woken by what another
 * process writes there, and a job that shares none (a hello) never pays.
 */
final class Futex {
    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    /** {@code struct timespec}: {@code time_t tv_sec; long tv_nsec}. */
    private static final long TIMESPEC = 16;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /** The process's futex once bound, available or not; null before. */
    private static volatile Futex bound;
    private static final AtomicBoolean BINDING = new AtomicBoolean();

    private final MethodHandle syscall;
    private final long number;
    private final String cause;
    /** The timeout of {@link #await}, whose caller is one thread at a time (the parker's one sleeper). */
    private final MemorySegment timeout;

    private Futex(MethodHandle syscall, long number, String cause) {
        this.syscall = syscall;
        this.number = number;
        this.cause = cause;
        this.timeout = cause == null ? Arena.ofAuto().allocate(TIMESPEC, 8) : null;
    }

    /** Binds the process's futex on a daemon thread of its own, the first time it is called; else nothing. */
    static void bindInBackground() {
        if (BINDING.compareAndSet(false, true)) {
            Thread.ofPlatform().daemon().name("weft-futex-bind").start(() -> bound = bind());
        }
    }

    /** The process's futex once bound and working; null before or where futexes cannot be used. */
    static Futex ready() {
        Futex futex = bound;
        return futex != null && futex.isAvailable() ? futex : null;
    }

    /** Binds {@code syscall} and wakes nobody on an int of this process's to see that it works. */
    static Futex bind() {
        String unavailable = precondition();
        if (unavailable != null) {
            return new Futex(null, -1, unavailable);
        }
        long number = System.getProperty("os.arch").toLowerCase(Locale.ROOT).equals("aarch64") ? 98 : 202;
        try {
            Linker linker = Linker.nativeLinker();
            // long syscall(long number, ...): here (int *uaddr, int futex_op, int val, const struct timespec *), the
            // address as a long, so that a call makes no segment for it
            MethodHandle h = linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS),
                    Linker.Option.firstVariadicArg(1));
            Futex futex = new Futex(h, number, null);
            MemorySegment word = Arena.ofAuto().allocate(ValueLayout.JAVA_INT);
            long woken = (long) h.invokeExact(number, word.address(), FUTEX_WAKE, 1, MemorySegment.NULL);
            return woken == 0 ? futex : new Futex(null, -1, "futex(FUTEX_WAKE) failed: " + woken);
        } catch (Throwable e) {
            return new Futex(null, -1, "cannot bind futex: " + e);
        }
    }

    private static String precondition() {
        if (!System.getProperty("os.name").equals("Linux")) {
            return "futexes need Linux";
        }
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        if (!arch.equals("amd64") && !arch.equals("x86_64") && !arch.equals("aarch64")) {
            return "no futex system call number known for " + arch;
        }
        if (!Futex.class.getModule().isNativeAccessEnabled()) {
            return "native access is not enabled (weftrun gives ranks --enable-native-access=ALL-UNNAMED)";
        }
        return null;
    }

    boolean isAvailable() {
        return cause == null;
    }

    /** Why futexes cannot be used here; {@code null} when they can. */
    String cause() {
        return cause;
    }

    /**
     * Sleeps while the int at {@code address} (in a shared mapping, 4-byte aligned) is {@code expected}, for at most
     * {@code nanos}: returns at once if it is not, when another thread or process {@link #wake}s it, on a signal, or
     * at the timeout.
     */
    void await(long address, int expected, long nanos) {
        timeout.set(ValueLayout.JAVA_LONG, 0, nanos / NANOS_PER_SECOND);
        timeout.set(ValueLayout.JAVA_LONG, 8, nanos % NANOS_PER_SECOND);
        call(address, FUTEX_WAIT, expected, timeout);
    }

    /** Wakes a thread sleeping in {@link #await} on the int at {@code address}, if one does. */
    void wake(long address) {
        call(address, FUTEX_WAKE, 1, MemorySegment.NULL);
    }

    private void call(long word, int op, int value, MemorySegment time) {
        try {
            long ignored = (long) syscall.invokeExact(number, word, op, value, time); // -1: timeout, changed, signal
        } catch (Throwable e) {
            throw new IllegalStateException("futex call failed", e);
        }
    }
}
