package org.weft.adi;

/**
 * MPI error classes, with the values of Open MPI 4.1 ({@code mpi.h}), so that programs which print or
 * compare error classes see the numbers they know (checked against Open MPI 4.1's {@code mpi.h}). {@code mpi.MPI} re-exports them.
 */
public final class ErrorClass {
    public static final int SUCCESS = 0;
    public static final int ERR_BUFFER = 1;
    public static final int ERR_COUNT = 2;
    public static final int ERR_TYPE = 3;
    public static final int ERR_TAG = 4;
    public static final int ERR_COMM = 5;
    public static final int ERR_RANK = 6;
    public static final int ERR_REQUEST = 7;
    public static final int ERR_ROOT = 8;
    public static final int ERR_GROUP = 9;
    public static final int ERR_OP = 10;
    public static final int ERR_TOPOLOGY = 11;
    public static final int ERR_DIMS = 12;
    public static final int ERR_ARG = 13;
    public static final int ERR_UNKNOWN = 14;
    public static final int ERR_TRUNCATE = 15;
    public static final int ERR_OTHER = 16;
    public static final int ERR_INTERN = 17;
    public static final int ERR_IN_STATUS = 18;
    public static final int ERR_PENDING = 19;
    public static final int ERR_ACCESS = 20;
    public static final int ERR_AMODE = 21;
    public static final int ERR_ASSERT = 22;
    public static final int ERR_BAD_FILE = 23;
    public static final int ERR_BASE = 24;
    public static final int ERR_CONVERSION = 25;
    public static final int ERR_DISP = 26;
    public static final int ERR_DUP_DATAREP = 27;
    public static final int ERR_FILE_EXISTS = 28;
    public static final int ERR_FILE_IN_USE = 29;
    public static final int ERR_FILE = 30;
    public static final int ERR_INFO_KEY = 31;
    public static final int ERR_INFO_NOKEY = 32;
    public static final int ERR_INFO_VALUE = 33;
    public static final int ERR_INFO = 34;
    public static final int ERR_IO = 35;
    public static final int ERR_KEYVAL = 36;
    public static final int ERR_LOCKTYPE = 37;
    public static final int ERR_NAME = 38;
    public static final int ERR_NO_MEM = 39;
    public static final int ERR_NOT_SAME = 40;
    public static final int ERR_NO_SPACE = 41;
    public static final int ERR_NO_SUCH_FILE = 42;
    public static final int ERR_PORT = 43;
    public static final int ERR_QUOTA = 44;
    public static final int ERR_READ_ONLY = 45;
    public static final int ERR_RMA_CONFLICT = 46;
    public static final int ERR_RMA_SYNC = 47;
    public static final int ERR_SERVICE = 48;
    public static final int ERR_SIZE = 49;
    public static final int ERR_SPAWN = 50;
    public static final int ERR_UNSUPPORTED_DATAREP = 51;
    public static final int ERR_UNSUPPORTED_OPERATION = 52;
    public static final int ERR_WIN = 53;
    /** MPI-3's one-sided classes, with Open MPI's values (its Java bindings do not name them). */
    public static final int ERR_RMA_RANGE = 68;
    public static final int ERR_RMA_ATTACH = 69;
    public static final int ERR_RMA_FLAVOR = 70;
    public static final int ERR_RMA_SHARED = 71;
    public static final int ERR_SYSRESOURCE = -2;
    public static final int ERR_LASTCODE = 92;

    private ErrorClass() {
    }

    /** A short name for messages, e.g. {@code MPI_ERR_TRUNCATE}. */
    public static String name(int errorClass) {
        return switch (errorClass) {
            case SUCCESS -> "MPI_SUCCESS";
            case ERR_BUFFER -> "MPI_ERR_BUFFER";
            case ERR_COUNT -> "MPI_ERR_COUNT";
            case ERR_TYPE -> "MPI_ERR_TYPE";
            case ERR_TAG -> "MPI_ERR_TAG";
            case ERR_COMM -> "MPI_ERR_COMM";
            case ERR_RANK -> "MPI_ERR_RANK";
            case ERR_REQUEST -> "MPI_ERR_REQUEST";
            case ERR_ROOT -> "MPI_ERR_ROOT";
            case ERR_ARG -> "MPI_ERR_ARG";
            case ERR_TRUNCATE -> "MPI_ERR_TRUNCATE";
            case ERR_OTHER -> "MPI_ERR_OTHER";
            case ERR_INTERN -> "MPI_ERR_INTERN";
            case ERR_IN_STATUS -> "MPI_ERR_IN_STATUS";
            case ERR_PENDING -> "MPI_ERR_PENDING";
            case ERR_UNSUPPORTED_OPERATION -> "MPI_ERR_UNSUPPORTED_OPERATION";
            default -> "MPI error class " + errorClass;
        };
    }
}
