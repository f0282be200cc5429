package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.MpiRuntime;
import org.weft.core.RuntimeBinding;
import org.weft.core.datatype.BaseType;
import org.weft.core.io.OpenFile;
import org.weft.core.datatype.EnclosingMemory;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.ErrorMode;
import org.weft.core.p2p.BsendBuffer;

/**
 * The entry point of the Java bindings: initialization, the predefined communicators, datatypes, operations
 * and constants (with Open MPI 4.1's values), timers and buffer helpers.
 *
 * <p>{@link #COMM_WORLD} and {@link #COMM_SELF} belong to the calling thread's runtime: the process's own, or
 * the one bound by {@code org.weft.core.RuntimeBinding.runWithConfig} when several ranks share one JVM.
 */
public final class MPI {
    public static final Intracomm COMM_WORLD = new Intracomm(Comm.WORLD);
    public static final Intracomm COMM_SELF = new Intracomm(Comm.SELF);

    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;

    public static final int GRAPH = 2;
    public static final int DIST_GRAPH = 3;
    public static final int CART = 1;

    public static final int ANY_SOURCE = Ranks.ANY_SOURCE;
    public static final int ANY_TAG = Ranks.ANY_TAG;

    public static final Op MAX = Op.predefined("MPI_MAX", true);
    public static final Op MIN = Op.predefined("MPI_MIN", true);
    public static final Op SUM = Op.predefined("MPI_SUM", true);
    public static final Op PROD = Op.predefined("MPI_PROD", true);
    public static final Op LAND = Op.predefined("MPI_LAND", true);
    public static final Op BAND = Op.predefined("MPI_BAND", true);
    public static final Op LOR = Op.predefined("MPI_LOR", true);
    public static final Op BOR = Op.predefined("MPI_BOR", true);
    public static final Op LXOR = Op.predefined("MPI_LXOR", true);
    public static final Op BXOR = Op.predefined("MPI_BXOR", true);
    public static final Op REPLACE = Op.predefined("MPI_REPLACE", false);
    public static final Op NO_OP = Op.predefined("MPI_NO_OP", false);
    public static final Op MINLOC = Op.predefined("MPI_MINLOC", true);
    public static final Op MAXLOC = Op.predefined("MPI_MAXLOC", true);

    public static final Datatype DATATYPE_NULL = new Datatype(null);
    public static final Datatype BYTE = primitive("MPI_BYTE", BaseType.BYTE, 1);
    /** A Java {@code char}: two bytes. */
    public static final Datatype CHAR = primitive("MPI_CHAR", BaseType.CHAR, 1);
    public static final Datatype SHORT = primitive("MPI_SHORT", BaseType.SHORT, 1);
    /** A Java {@code boolean}: one byte. */
    public static final Datatype BOOLEAN = primitive("MPI_BOOLEAN", BaseType.BOOLEAN, 1);
    public static final Datatype INT = primitive("MPI_INT", BaseType.INT, 1);
    public static final Datatype LONG = primitive("MPI_LONG", BaseType.LONG, 1);
    public static final Datatype FLOAT = primitive("MPI_FLOAT", BaseType.FLOAT, 1);
    public static final Datatype DOUBLE = primitive("MPI_DOUBLE", BaseType.DOUBLE, 1);
    public static final Datatype PACKED = new Datatype(TypeDescriptor.packed());
    public static final Datatype FLOAT_COMPLEX = primitive("MPI_FLOAT_COMPLEX", BaseType.FLOAT, 2);
    public static final Datatype DOUBLE_COMPLEX = primitive("MPI_DOUBLE_COMPLEX", BaseType.DOUBLE, 2);
    /**
     * Pair types (value, int index) laid out as Open MPI's C structs (see
     * {@link org.weft.core.datatype.PairLayout}): base type BYTE, so sizes count bytes
     * ({@code DOUBLE_INT.getSize() == 12}, {@code getExtent() == 16}); use them with {@code byte[]} or
     * {@code ByteBuffer}, through {@link #int2}, {@link #doubleInt}, ...
     */
    public static final Datatype INT2 = pair("MPI_2INT", BaseType.INT);
    public static final Datatype SHORT_INT = pair("MPI_SHORT_INT", BaseType.SHORT);
    public static final Datatype LONG_INT = pair("MPI_LONG_INT", BaseType.LONG);
    public static final Datatype FLOAT_INT = pair("MPI_FLOAT_INT", BaseType.FLOAT);
    public static final Datatype DOUBLE_INT = pair("MPI_DOUBLE_INT", BaseType.DOUBLE);

    public static final Int2 int2 = new Int2();
    public static final ShortInt shortInt = new ShortInt();
    public static final LongInt longInt = new LongInt();
    public static final FloatInt floatInt = new FloatInt();
    public static final DoubleInt doubleInt = new DoubleInt();

    public static final Request REQUEST_NULL = new Request();
    public static final Group GROUP_EMPTY = new Group(org.weft.core.comm.ProcessGroup.empty(), -1);
    public static final Info INFO_ENV = Info.predefined();
    public static final Info INFO_NULL = Info.predefined();

    public static final int PROC_NULL = Ranks.PROC_NULL;
    public static final int UNDEFINED = Ranks.UNDEFINED;

    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;

    /** Keyvals of the predefined attributes (Open MPI's values); read them with {@code Comm.getAttr}. */
    public static final int TAG_UB = 0;
    public static final int HOST = 1;
    public static final int IO = 2;
    public static final int WTIME_IS_GLOBAL = 3;
    public static final int APPNUM = 4;
    public static final int LASTUSEDCODE = 5;
    public static final int UNIVERSE_SIZE = 6;
    public static final int WIN_BASE = 7;
    public static final int WIN_SIZE = 8;
    public static final int WIN_DISP_UNIT = 9;
    /**
     * MPI-3's window attributes {@code MPI_WIN_CREATE_FLAVOR} and {@code MPI_WIN_MODEL} and their values (Open
     * MPI's C values; its Java bindings do not name them): read them with {@code Win.getAttr}.
     */
    public static final int WIN_CREATE_FLAVOR = 10;
    public static final int WIN_MODEL = 11;
    public static final int WIN_FLAVOR_CREATE = 1;
    public static final int WIN_FLAVOR_ALLOCATE = 2;
    public static final int WIN_FLAVOR_DYNAMIC = 3;
    public static final int WIN_FLAVOR_SHARED = 4;
    public static final int WIN_SEPARATE = 1;
    public static final int WIN_UNIFIED = 2;

    /** The MPI standard version Weft implements ({@code MPI_VERSION}, {@code MPI_SUBVERSION}). */
    public static final int VERSION = 3;
    public static final int SUBVERSION = 1;
    public static final int ROOT = -4;
    public static final int KEYVAL_INVALID = -1;
    public static final int BSEND_OVERHEAD = BsendBuffer.OVERHEAD;
    public static final int MAX_OBJECT_NAME = 64;
    public static final int MAX_PORT_NAME = 1024;
    public static final int MAX_DATAREP_STRING = 128;
    public static final int MAX_INFO_KEY = 36;
    public static final int MAX_INFO_VAL = 256;
    public static final int ORDER_C = 0;
    public static final int ORDER_FORTRAN = 1;
    public static final int DISTRIBUTE_BLOCK = 0;
    public static final int DISTRIBUTE_CYCLIC = 1;
    public static final int DISTRIBUTE_NONE = 2;
    public static final int DISTRIBUTE_DFLT_DARG = -1;
    public static final int MODE_CREATE = OpenFile.MODE_CREATE;
    public static final int MODE_RDONLY = OpenFile.MODE_RDONLY;
    public static final int MODE_WRONLY = OpenFile.MODE_WRONLY;
    public static final int MODE_RDWR = OpenFile.MODE_RDWR;
    public static final int MODE_DELETE_ON_CLOSE = OpenFile.MODE_DELETE_ON_CLOSE;
    public static final int MODE_UNIQUE_OPEN = OpenFile.MODE_UNIQUE_OPEN;
    public static final int MODE_EXCL = OpenFile.MODE_EXCL;
    public static final int MODE_APPEND = OpenFile.MODE_APPEND;
    public static final int MODE_SEQUENTIAL = OpenFile.MODE_SEQUENTIAL;
    public static final int DISPLACEMENT_CURRENT = OpenFile.DISPLACEMENT_CURRENT;
    public static final int SEEK_SET = OpenFile.SEEK_SET;
    public static final int SEEK_CUR = OpenFile.SEEK_CUR;
    public static final int SEEK_END = OpenFile.SEEK_END;
    public static final int MODE_NOCHECK = 1;
    public static final int MODE_NOPRECEDE = 2;
    public static final int MODE_NOPUT = 4;
    public static final int MODE_NOSTORE = 8;
    public static final int MODE_NOSUCCEED = 16;
    public static final int LOCK_EXCLUSIVE = 1;
    public static final int LOCK_SHARED = 2;

    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(ErrorMode.FATAL);
    public static final Errhandler ERRORS_RETURN = new Errhandler(ErrorMode.RETURN);

    public static final int SUCCESS = ErrorClass.SUCCESS;
    public static final int ERR_BUFFER = ErrorClass.ERR_BUFFER;
    public static final int ERR_COUNT = ErrorClass.ERR_COUNT;
    public static final int ERR_TYPE = ErrorClass.ERR_TYPE;
    public static final int ERR_TAG = ErrorClass.ERR_TAG;
    public static final int ERR_COMM = ErrorClass.ERR_COMM;
    public static final int ERR_RANK = ErrorClass.ERR_RANK;
    public static final int ERR_REQUEST = ErrorClass.ERR_REQUEST;
    public static final int ERR_ROOT = ErrorClass.ERR_ROOT;
    public static final int ERR_GROUP = ErrorClass.ERR_GROUP;
    public static final int ERR_OP = ErrorClass.ERR_OP;
    public static final int ERR_TOPOLOGY = ErrorClass.ERR_TOPOLOGY;
    public static final int ERR_DIMS = ErrorClass.ERR_DIMS;
    public static final int ERR_ARG = ErrorClass.ERR_ARG;
    public static final int ERR_UNKNOWN = ErrorClass.ERR_UNKNOWN;
    public static final int ERR_TRUNCATE = ErrorClass.ERR_TRUNCATE;
    public static final int ERR_OTHER = ErrorClass.ERR_OTHER;
    public static final int ERR_INTERN = ErrorClass.ERR_INTERN;
    public static final int ERR_IN_STATUS = ErrorClass.ERR_IN_STATUS;
    public static final int ERR_PENDING = ErrorClass.ERR_PENDING;
    public static final int ERR_ACCESS = ErrorClass.ERR_ACCESS;
    public static final int ERR_AMODE = ErrorClass.ERR_AMODE;
    public static final int ERR_ASSERT = ErrorClass.ERR_ASSERT;
    public static final int ERR_BAD_FILE = ErrorClass.ERR_BAD_FILE;
    public static final int ERR_BASE = ErrorClass.ERR_BASE;
    public static final int ERR_CONVERSION = ErrorClass.ERR_CONVERSION;
    public static final int ERR_DISP = ErrorClass.ERR_DISP;
    public static final int ERR_DUP_DATAREP = ErrorClass.ERR_DUP_DATAREP;
    public static final int ERR_FILE_EXISTS = ErrorClass.ERR_FILE_EXISTS;
    public static final int ERR_FILE_IN_USE = ErrorClass.ERR_FILE_IN_USE;
    public static final int ERR_FILE = ErrorClass.ERR_FILE;
    public static final int ERR_INFO_KEY = ErrorClass.ERR_INFO_KEY;
    public static final int ERR_INFO_NOKEY = ErrorClass.ERR_INFO_NOKEY;
    public static final int ERR_INFO_VALUE = ErrorClass.ERR_INFO_VALUE;
    public static final int ERR_INFO = ErrorClass.ERR_INFO;
    public static final int ERR_IO = ErrorClass.ERR_IO;
    public static final int ERR_KEYVAL = ErrorClass.ERR_KEYVAL;
    public static final int ERR_LOCKTYPE = ErrorClass.ERR_LOCKTYPE;
    public static final int ERR_NAME = ErrorClass.ERR_NAME;
    public static final int ERR_NO_MEM = ErrorClass.ERR_NO_MEM;
    public static final int ERR_NOT_SAME = ErrorClass.ERR_NOT_SAME;
    public static final int ERR_NO_SPACE = ErrorClass.ERR_NO_SPACE;
    public static final int ERR_NO_SUCH_FILE = ErrorClass.ERR_NO_SUCH_FILE;
    public static final int ERR_PORT = ErrorClass.ERR_PORT;
    public static final int ERR_QUOTA = ErrorClass.ERR_QUOTA;
    public static final int ERR_READ_ONLY = ErrorClass.ERR_READ_ONLY;
    public static final int ERR_RMA_CONFLICT = ErrorClass.ERR_RMA_CONFLICT;
    public static final int ERR_RMA_SYNC = ErrorClass.ERR_RMA_SYNC;
    public static final int ERR_SERVICE = ErrorClass.ERR_SERVICE;
    public static final int ERR_SIZE = ErrorClass.ERR_SIZE;
    public static final int ERR_SPAWN = ErrorClass.ERR_SPAWN;
    public static final int ERR_UNSUPPORTED_DATAREP = ErrorClass.ERR_UNSUPPORTED_DATAREP;
    public static final int ERR_UNSUPPORTED_OPERATION = ErrorClass.ERR_UNSUPPORTED_OPERATION;
    public static final int ERR_WIN = ErrorClass.ERR_WIN;
    /** MPI-3's one-sided error classes (Open MPI's values; not named by Open MPI's Java bindings). */
    public static final int ERR_RMA_RANGE = ErrorClass.ERR_RMA_RANGE;
    public static final int ERR_RMA_ATTACH = ErrorClass.ERR_RMA_ATTACH;
    public static final int ERR_RMA_FLAVOR = ErrorClass.ERR_RMA_FLAVOR;
    public static final int ERR_RMA_SHARED = ErrorClass.ERR_RMA_SHARED;
    public static final int ERR_LASTCODE = ErrorClass.ERR_LASTCODE;
    public static final int ERR_SYSRESOURCE = ErrorClass.ERR_SYSRESOURCE;

    private static final long START_NANOS = System.nanoTime();
    private static final String LIB_VERSION = "Weft 0.1.0 (MPI 3.1, Open MPI Java bindings API)";

    /** Open MPI's bindings let programs instantiate {@code MPI}; it has no instance state. */
    public MPI() {
    }

    private static Datatype primitive(String name, BaseType base, int count) {
        return new Datatype(TypeDescriptor.predefined(name, base, count));
    }

    private static Datatype pair(String name, BaseType value) {
        return new Datatype(TypeDescriptor.pair(name, value));
    }

    /** {@code MPI_Init}: joins the job (or starts a world of one); returns the arguments unchanged. */
    public static String[] Init(String[] args) throws MPIException {
        init("MPI_Init", THREAD_SINGLE);
        return args;
    }

    /** {@code MPI_Init_thread}: every level up to {@link #THREAD_MULTIPLE} is provided; returns the level. */
    public static int InitThread(String[] args, int required) throws MPIException {
        return init("MPI_Init_thread", required).threadLevel();
    }

    private static MpiRuntime init(String call, int level) throws MPIException {
        try {
            return RuntimeBinding.slot().initialize(level);
        } catch (DeviceException e) {
            throw Errors.onWorld(call, e);
        }
    }

    private static MpiRuntime runtime(String call) throws MPIException {
        try {
            return RuntimeBinding.runtime();
        } catch (DeviceException e) {
            throw Errors.onWorld(call, e);
        }
    }

    /** {@code MPI_Query_thread}. */
    public static int queryThread() throws MPIException {
        return runtime("MPI_Query_thread").threadLevel();
    }

    /** {@code MPI_Is_thread_main}. */
    public static boolean isThreadMain() throws MPIException {
        return runtime("MPI_Is_thread_main").isMainThread();
    }

    /** {@code MPI_Finalize}: collective; waits for buffered sends and for every rank. */
    public static void Finalize() throws MPIException {
        MpiRuntime runtime = runtime("MPI_Finalize");
        try {
            runtime.finish();
        } catch (DeviceException e) {
            throw Errors.raise(runtime.world(), "MPI_Finalize", e);
        }
    }

    /** {@code MPI_Wtime}: seconds since an arbitrary origin in this process. */
    public static double wtime() throws MPIException {
        return (System.nanoTime() - START_NANOS) / 1e9;
    }

    /** {@code MPI_Wtick}: the resolution of {@link #wtime()}. */
    public static double wtick() throws MPIException {
        return 1e-9;
    }

    /** {@code MPI_Get_version}: 3.1. */
    public static Version getVersion() {
        return new Version(VERSION, SUBVERSION);
    }

    /** {@code MPI_Get_library_version}. */
    public static String getLibVersion() {
        return LIB_VERSION;
    }

    /** {@code MPI_Get_processor_name}. */
    public static String getProcessorName() throws MPIException {
        return runtime("MPI_Get_processor_name").device().processorName();
    }

    /** {@code MPI_Initialized}: true once {@code Init} ran (also after {@code Finalize}). */
    public static boolean isInitialized() throws MPIException {
        return RuntimeBinding.slot().isInitialized();
    }

    /** {@code MPI_Finalized}. */
    public static boolean isFinalized() throws MPIException {
        return RuntimeBinding.slot().isFinalized();
    }

    /** {@code MPI_Buffer_attach}: the buffer for {@code bSend}; each message takes its size + BSEND_OVERHEAD. */
    public static void attachBuffer(byte[] buffer) throws MPIException {
        MpiRuntime runtime = runtime("MPI_Buffer_attach");
        try {
            runtime.bsendBuffer().attach(buffer);
        } catch (DeviceException e) {
            throw Errors.raise(runtime.world(), "MPI_Buffer_attach", e);
        }
    }

    /** {@code MPI_Buffer_detach}: waits for pending buffered sends; returns the buffer (null if none). */
    public static byte[] detachBuffer() throws MPIException {
        return runtime("MPI_Buffer_detach").bsendBuffer().detach();
    }

    /** {@code MPI_Pcontrol}: profiling control; Weft has no profiling levels, so it does nothing. */
    public static void pControl(int level, Object obj) {
    }

    /**
     * A direct {@code ByteBuffer} of {@code capacity} bytes in native order (the order of Weft's wire). Between
     * {@code MPI.Init} and {@code MPI.Finalize}, on a host where ranks share memory, it lies in memory the host's
     * other ranks can map, so that a window over it is served by their loads and stores (no messages).
     */
    public static ByteBuffer newByteBuffer(int capacity) {
        MpiRuntime runtime = RuntimeBinding.slot().activeRuntime();
        if (runtime != null) {
            return runtime.sharedBuffers().newByteBuffer(capacity);
        }
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    /** A direct {@code CharBuffer} of {@code capacity} elements in native order. */
    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asCharBuffer();
    }

    /** A direct {@code ShortBuffer} of {@code capacity} elements in native order. */
    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(capacity * 2).asShortBuffer();
    }

    /** A direct {@code IntBuffer} of {@code capacity} elements in native order. */
    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asIntBuffer();
    }

    /** A direct {@code LongBuffer} of {@code capacity} elements in native order. */
    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asLongBuffer();
    }

    /** A direct {@code FloatBuffer} of {@code capacity} elements in native order. */
    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(capacity * 4).asFloatBuffer();
    }

    /** A direct {@code DoubleBuffer} of {@code capacity} elements in native order. */
    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(capacity * 8).asDoubleBuffer();
    }

    /**
     * The part of {@code buf} from index {@code offset} on (positions are ignored by MPI calls); a datatype may reach
     * before its start, into {@code buf}.
     */
    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return EnclosingMemory.sliced(buf.duplicate().clear().position(offset).slice().order(buf.order()), buf);
    }

    /** A heap buffer over {@code buf} from index {@code offset} on; a datatype may reach before it, into buf. */
    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * The part of {@code buf} from index {@code offset} on (positions are ignored by MPI calls); a datatype may reach
     * before its start, into {@code buf}.
     */
    public static CharBuffer slice(CharBuffer buf, int offset) {
        return EnclosingMemory.sliced(buf.duplicate().clear().position(offset).slice(), buf);
    }

    /** A heap buffer over {@code buf} from index {@code offset} on; a datatype may reach before it, into buf. */
    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * The part of {@code buf} from index {@code offset} on (positions are ignored by MPI calls); a datatype may reach
     * before its start, into {@code buf}.
     */
    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return EnclosingMemory.sliced(buf.duplicate().clear().position(offset).slice(), buf);
    }

    /** A heap buffer over {@code buf} from index {@code offset} on; a datatype may reach before it, into buf. */
    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * The part of {@code buf} from index {@code offset} on (positions are ignored by MPI calls); a datatype may reach
     * before its start, into {@code buf}.
     */
    public static IntBuffer slice(IntBuffer buf, int offset) {
        return EnclosingMemory.sliced(buf.duplicate().clear().position(offset).slice(), buf);
    }

    /** A heap buffer over {@code buf} from index {@code offset} on; a datatype may reach before it, into buf. */
    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * The part of {@code buf} from index {@code offset} on (positions are ignored by MPI calls); a datatype may reach
     * before its start, into {@code buf}.
     */
    public static LongBuffer slice(LongBuffer buf, int offset) {
        return EnclosingMemory.sliced(buf.duplicate().clear().position(offset).slice(), buf);
    }

    /** A heap buffer over {@code buf} from index {@code offset} on; a datatype may reach before it, into buf. */
    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * The part of {@code buf} from index {@code offset} on (positions are ignored by MPI calls); a datatype may reach
     * before its start, into {@code buf}.
     */
    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return EnclosingMemory.sliced(buf.duplicate().clear().position(offset).slice(), buf);
    }

    /** A heap buffer over {@code buf} from index {@code offset} on; a datatype may reach before it, into buf. */
    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /**
     * The part of {@code buf} from index {@code offset} on (positions are ignored by MPI calls); a datatype may reach
     * before its start, into {@code buf}.
     */
    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return EnclosingMemory.sliced(buf.duplicate().clear().position(offset).slice(), buf);
    }

    /** A heap buffer over {@code buf} from index {@code offset} on; a datatype may reach before it, into buf. */
    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }
}
