package org.weft.mm.affinity;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.stream.Stream;

/**
 * Linux's CPU affinity through FFM: {@code sched_getaffinity} and {@code sched_setaffinity} on the calling thread or on
 * every thread of this process ({@code /proc/self/task}), so a JVM's threads already running are bound with the ones it starts later
 * (a new thread inherits its creator's mask). Unavailable without native access or off Linux; then {@link #cause()}
 * says why.
 */
final class LinuxAffinity {
    /** A {@code cpu_set_t} of 1024 CPUs, glibc's size. */
    private static final long MASK_BYTES = 128;

    private final MethodHandle get;
    private final MethodHandle set;
    private final String cause;

    private LinuxAffinity(MethodHandle get, MethodHandle set, String cause) {
        this.get = get;
        this.set = set;
        this.cause = cause;
    }

    static LinuxAffinity bind() {
        if (!System.getProperty("os.name").equals("Linux")) {
            return new LinuxAffinity(null, null, "CPU binding needs Linux, not " + System.getProperty("os.name"));
        }
        if (!LinuxAffinity.class.getModule().isNativeAccessEnabled()) {
            return new LinuxAffinity(null, null, "native access is not enabled (weftrun gives ranks"
                    + " --enable-native-access=ALL-UNNAMED)");
        }
        try {
            Linker linker = Linker.nativeLinker();
            FunctionDescriptor call = FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS);
            var libc = linker.defaultLookup();
            return new LinuxAffinity(linker.downcallHandle(libc.find("sched_getaffinity").orElseThrow(), call),
                    linker.downcallHandle(libc.find("sched_setaffinity").orElseThrow(), call), null);
        } catch (RuntimeException | LinkageError e) {
            return new LinuxAffinity(null, null, "libc's sched_setaffinity is not reachable: " + e);
        }
    }

    /** {@code null} when binding works here, else why it does not. */
    String cause() {
        return cause;
    }

    /** The CPUs this process may run on now. */
    BitSet allowed() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES);
            int rc = (int) get.invokeExact(0, MASK_BYTES, mask);
            if (rc != 0) {
                throw new IllegalStateException("sched_getaffinity failed");
            }
            return BitSet.valueOf(mask.toArray(JAVA_BYTE));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Binds every thread of this process to {@code cpus}; twice over the thread list, for threads started while the
     * first pass ran. Returns how many threads it could not bind (those that ended meanwhile are not counted).
     */
    int bindAllThreads(BitSet cpus) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = mask(arena, cpus);
            int failed = 0;
            for (int pass = 0; pass < 2; pass++) {
                failed = 0;
                for (int tid : threads()) {
                    int rc = (int) set.invokeExact(tid, MASK_BYTES, mask);
                    failed += rc != 0 && Files.exists(Path.of("/proc/self/task/" + tid)) ? 1 : 0;
                }
            }
            return failed;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Binds the calling thread alone to {@code cpus}; whether it could. */
    boolean bindThisThread(BitSet cpus) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) set.invokeExact(0, MASK_BYTES, mask(arena, cpus)) == 0; // 0: the calling thread
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static MemorySegment mask(Arena arena, BitSet cpus) {
        MemorySegment mask = arena.allocate(MASK_BYTES);
        byte[] bytes = cpus.toByteArray();
        MemorySegment.copy(bytes, 0, mask, JAVA_BYTE, 0, Math.min(bytes.length, (int) MASK_BYTES));
        return mask;
    }

    private static List<Integer> threads() throws IOException {
        List<Integer> tids = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.forEach(task -> tids.add(Integer.parseInt(task.getFileName().toString())));
        }
        return tids;
    }
}
