package org.weft.mm.module.nativempi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.weft.adi.NativeCollectives.Element;
import org.weft.adi.NativeCollectives.Operation;

/**
 * What differs between MPI implementations' binary interfaces, as far as this module uses them: how big a handle is
 * and the values of the predefined handles and constants. Everything else (function names and argument order) is
 * fixed by the MPI standard. Handles are carried as a {@code long} in Java whatever their C type.
 */
sealed interface MpiFlavour permits OpenMpiFlavour, MpichFlavour {
    /** MPI_THREAD_SERIALIZED has the same value in every implementation we know. */
    int THREAD_SERIALIZED = 2;
    int SUCCESS = 0;
    /** Room for MPI_MAX_LIBRARY_VERSION_STRING (MPICH's is the largest: 8192). */
    int MAX_LIBRARY_VERSION_STRING = 8192;
    /** Room for MPI_MAX_ERROR_STRING (MPICH's is the largest: 1024). */
    int MAX_ERROR_STRING = 1024;

    /** A short name for reports: {@code Open MPI}, {@code MPICH}. */
    String name();

    /** The layout of a handle in C ({@code MPI_Comm}, {@code MPI_Request}, ...): a pointer or an int. */
    ValueLayout handleLayout();

    long commWorld();

    long byteType();

    long errorsReturn();

    long requestNull();

    int anySource();

    /** The datatype of native reductions on Java's {@code element} (a Java {@code char} is an unsigned short). */
    long datatype(Element element);

    /** The predefined operation {@code op}. */
    long op(Operation op);

    /** {@code MPI_IN_PLACE}, a special address. */
    long inPlace();

    /** Weft's error class ({@code org.weft.adi.ErrorClass}, Open MPI's numbers) of the library's {@code errorClass}. */
    int weftErrorClass(int errorClass);

    /** {@code sizeof(MPI_Status)}. */
    long statusSize();

    /**
     * The bytes a completed receive of {@code MPI_BYTE}s got, read from its status without a call into libmpi.
     */
    long receivedBytes(MemorySegment status);

    /**
     * The flavour of the library whose {@code MPI_Get_library_version} said {@code version}, or {@code null} when
     * we do not know it. MPICH derivatives keeping its ABI (Intel MPI, MVAPICH, Cray MPICH) count as MPICH.
     */
    static MpiFlavour of(String version, NativeLibrary library) {
        if (version.startsWith("Open MPI")) {
            return OpenMpiFlavour.resolve(library);
        }
        if (version.contains("MPICH") || version.startsWith("Intel(R) MPI") || version.startsWith("MVAPICH")) {
            return new MpichFlavour();
        }
        return null;
    }
}
