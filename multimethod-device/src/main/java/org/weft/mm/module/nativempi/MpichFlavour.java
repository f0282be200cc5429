package org.weft.mm.module.nativempi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.weft.adi.ErrorClass;
import org.weft.adi.NativeCollectives.Element;
import org.weft.adi.NativeCollectives.Operation;

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
    /** {@code MPI_SIGNED_CHAR, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT, MPI_LONG, MPI_FLOAT, MPI_DOUBLE}. */
    private static final long[] DATATYPES = {0x4c000118, 0x4c000203, 0x4c000204, 0x4c000405, 0x4c000807, 0x4c00040a,
        0x4c00080b};
    /** {@code MPI_MAX} is 0x58000001, the others follow in {@link Operation}'s order (MPI's). */
    private static final long FIRST_OP = 0x58000001;
    /** Weft's class of each of MPICH's error classes 0..19 (MPICH numbers them from MPI-1's list, in another order). */
    private static final int[] ERROR_CLASSES = {0, ErrorClass.ERR_BUFFER, ErrorClass.ERR_COUNT, ErrorClass.ERR_TYPE,
        ErrorClass.ERR_TAG, ErrorClass.ERR_COMM, ErrorClass.ERR_RANK, ErrorClass.ERR_ROOT, ErrorClass.ERR_GROUP,
        ErrorClass.ERR_OP, ErrorClass.ERR_TOPOLOGY, ErrorClass.ERR_DIMS, ErrorClass.ERR_ARG, ErrorClass.ERR_UNKNOWN,
        ErrorClass.ERR_TRUNCATE, ErrorClass.ERR_OTHER, ErrorClass.ERR_INTERN, ErrorClass.ERR_IN_STATUS,
        ErrorClass.ERR_PENDING, ErrorClass.ERR_REQUEST};

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
    public long datatype(Element element) {
        return DATATYPES[element.ordinal()];
    }

    @Override
    public long op(Operation op) {
        return FIRST_OP + op.ordinal();
    }

    @Override
    public long inPlace() {
        return -1;
    }

    @Override
    public int weftErrorClass(int errorClass) {
        return errorClass >= 0 && errorClass < ERROR_CLASSES.length ? ERROR_CLASSES[errorClass] : ErrorClass.ERR_OTHER;
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
