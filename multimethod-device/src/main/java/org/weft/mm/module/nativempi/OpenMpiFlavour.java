package org.weft.mm.module.nativempi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Open MPI 4.1 and later: handles are pointers to predefined objects exported by libmpi ({@code MPI_COMM_WORLD} is
 * {@code &ompi_mpi_comm_world}); {@code MPI_Status} is source, tag, error, cancelled ({@code int}s) and a
 * {@code size_t} count: 24 bytes.
 */
record OpenMpiFlavour(long commWorld, long byteType, long errorsReturn, long requestNull) implements MpiFlavour {
    private static final long UCOUNT_OFFSET = 16;

    static OpenMpiFlavour resolve(NativeLibrary library) {
        return new OpenMpiFlavour(
                library.require("ompi_mpi_comm_world").address(),
                library.require("ompi_mpi_byte").address(),
                library.require("ompi_mpi_errors_return").address(),
                library.require("ompi_request_null").address());
    }

    @Override
    public String name() {
        return "Open MPI";
    }

    @Override
    public ValueLayout handleLayout() {
        return ValueLayout.JAVA_LONG; // a pointer, passed as a 64-bit integer (same registers on x86-64 and aarch64)
    }

    @Override
    public int anySource() {
        return -1;
    }

    @Override
    public long statusSize() {
        return 24;
    }

    /** {@code MPI_SOURCE, MPI_TAG, MPI_ERROR, _cancelled} (ints), then {@code size_t _ucount}: bytes. */
    @Override
    public long receivedBytes(MemorySegment status) {
        return status.get(ValueLayout.JAVA_LONG, UCOUNT_OFFSET);
    }
}
