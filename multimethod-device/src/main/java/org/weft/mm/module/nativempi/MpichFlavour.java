package org.weft.mm.module.nativempi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * MPICH 4.x and its ABI relatives: handles are {@code int}s with fixed values from MPICH's {@code mpi.h};
 * {@code MPI_Status} is count_lo, count_hi_and_cancelled, MPI_SOURCE, MPI_TAG, MPI_ERROR: 20 bytes. Checked
 * against Debian's MPICH 4.0.2 (the tests run sites under its Hydra).
 */
record MpichFlavour() implements MpiFlavour {
    private static final long COMM_WORLD = 0x44000000;
    private static final long BYTE = 0x4c00010d;
    private static final long ERRORS_RETURN = 0x54000001;
    private static final long REQUEST_NULL = 0x2c000000;
    private static final int ANY_SOURCE = -2;

    @Override
    public String name() {
        return "MPICH";
    }

    @Override
    public ValueLayout handleLayout() {
        return ValueLayout.JAVA_INT;
    }

    @Override
    public long commWorld() {
        return COMM_WORLD;
    }

    @Override
    public long byteType() {
        return BYTE;
    }

    @Override
    public long errorsReturn() {
        return ERRORS_RETURN;
    }

    @Override
    public long requestNull() {
        return REQUEST_NULL;
    }

    @Override
    public int anySource() {
        return ANY_SOURCE;
    }

    @Override
    public long statusSize() {
        return 20;
    }

    /** The count in bytes: its low 32 bits in count_lo, the rest above the cancelled bit of count_hi_and_cancelled. */
    @Override
    public long receivedBytes(MemorySegment status) {
        long low = status.get(ValueLayout.JAVA_INT, 0) & 0xFFFF_FFFFL;
        long high = status.get(ValueLayout.JAVA_INT, 4) >>> 1;
        return high << 32 | low;
    }
}
