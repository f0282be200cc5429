package org.weft.mm.module.nativempi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import org.weft.adi.NativeCollectives.Element;
import org.weft.adi.NativeCollectives.Operation;

/**
 * Open MPI 4.1 and later: handles are pointers to predefined objects exported by libmpi ({@code MPI_COMM_WORLD} is
 * {@code &ompi_mpi_comm_world}); {@code MPI_Status} is source, tag, error, cancelled ({@code int}s) and a
 * {@code size_t} count: 24 bytes. Error classes are numbered as Weft's ({@code ErrorClass} took Open MPI's).
 */
record OpenMpiFlavour(long commWorld, long byteType, long errorsReturn, long requestNull, long[] datatypes,
                      long[] ops) implements MpiFlavour {
    private static final long UCOUNT_OFFSET = 16;
    /** The C types of {@link Element}s, in its order: {@code ompi_mpi_<name>}. */
    private static final String[] C_TYPES = {"signed_char", "short", "unsigned_short", "int", "long", "float",
        "double"};

    static OpenMpiFlavour resolve(NativeLibrary library) {
        long[] datatypes = new long[C_TYPES.length];
        for (int i = 0; i < datatypes.length; i++) {
            datatypes[i] = library.require("ompi_mpi_" + C_TYPES[i]).address();
        }
        Operation[] operations = Operation.values();
        long[] ops = new long[operations.length];
        for (int i = 0; i < ops.length; i++) {
            ops[i] = library.require("ompi_mpi_op_" + operations[i].name().toLowerCase(Locale.ROOT)).address();
        }
        return new OpenMpiFlavour(
                library.require("ompi_mpi_comm_world").address(),
                library.require("ompi_mpi_byte").address(),
                library.require("ompi_mpi_errors_return").address(),
                library.require("ompi_request_null").address(), datatypes, ops);
    }

    @Override
    public long datatype(Element element) {
        return datatypes[element.ordinal()];
    }

    @Override
    public long op(Operation op) {
        return ops[op.ordinal()];
    }

    @Override
    public long inPlace() {
        return 1;
    }

    @Override
    public int weftErrorClass(int errorClass) {
        return errorClass;
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
