package org.weft.mm.module.nativempi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * A shared library opened through libc's {@code dlopen} with {@code RTLD_NOW | RTLD_GLOBAL}, and its symbols.
 *
 * <p>Why not {@link java.lang.foreign.SymbolLookup#libraryLookup}: it opens libraries {@code RTLD_LOCAL}, and Open
 * MPI's components (plugins it {@code dlopen}s itself during {@code MPI_Init}) then cannot resolve the symbols of
 * libmpi they link against: MPI_Init fails or the process dies. The library stays open for the life of the process
 * (Open MPI cannot be unloaded and initialised again anyway).
 */
final class NativeLibrary {
    /** {@code RTLD_NOW | RTLD_GLOBAL} on Linux. */
    private static final int RTLD_NOW_GLOBAL = 0x102;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle DLOPEN = libc("dlopen",
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    private static final MethodHandle DLSYM = libc("dlsym",
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
    private static final MethodHandle DLERROR = libc("dlerror", FunctionDescriptor.of(ValueLayout.ADDRESS));
    private static final MethodHandle SETENV = libc("setenv", FunctionDescriptor.of(ValueLayout.JAVA_INT,
            ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));

    private final String name;
    private final MemorySegment handle;

    private NativeLibrary(String name, MemorySegment handle) {
        this.name = name;
        this.handle = handle;
    }

    /** Opens {@code name} (a path or a soname searched as the dynamic loader does). */
    static NativeLibrary open(String name) throws LinkageError {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment h = (MemorySegment) DLOPEN.invokeExact(arena.allocateFrom(name), RTLD_NOW_GLOBAL);
            if (h.equals(MemorySegment.NULL)) {
                throw new UnsatisfiedLinkError(name + ": " + lastError());
            }
            return new NativeLibrary(name, h);
        } catch (LinkageError | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("dlopen " + name, t);
        }
    }

    String name() {
        return name;
    }

    /** The address of {@code symbol}, if the library (or one it depends on) defines it. */
    Optional<MemorySegment> find(String symbol) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment address = (MemorySegment) DLSYM.invokeExact(handle, arena.allocateFrom(symbol));
            return address.equals(MemorySegment.NULL) ? Optional.empty() : Optional.of(address);
        } catch (Throwable t) {
            throw new IllegalStateException("dlsym " + symbol, t);
        }
    }

    /** The address of {@code symbol}; a library without it is not the library we took it for. */
    MemorySegment require(String symbol) {
        return find(symbol).orElseThrow(() -> new UnsatisfiedLinkError(name + " has no symbol " + symbol));
    }

    /**
     * Sets an environment variable of this process (the C one, which libmpi and its transports read) unless it is
     * already set: the user's choice wins.
     */
    static void setenvIfUnset(String variable, String value) {
        try (Arena arena = Arena.ofConfined()) {
            int rc = (int) SETENV.invokeExact(arena.allocateFrom(variable), arena.allocateFrom(value), 0);
            if (rc != 0) {
                throw new IllegalStateException("setenv " + variable + " failed");
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("setenv " + variable, t);
        }
    }

    static Linker linker() {
        return LINKER;
    }

    private static String lastError() throws Throwable {
        MemorySegment message = (MemorySegment) DLERROR.invokeExact();
        return message.equals(MemorySegment.NULL) ? "unknown dlopen error"
                : message.reinterpret(4096).getString(0);
    }

    private static MethodHandle libc(String symbol, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(symbol)
                .orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + symbol)), descriptor);
    }
}
