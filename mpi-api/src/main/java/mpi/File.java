package mpi;

import java.nio.Buffer;

import org.weft.adi.DeviceException;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.core.comm.Communicator;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;
import org.weft.core.io.OpenFile;
import org.weft.core.io.OpenFile.Positioning;

/**
 * A file for MPI-IO ({@code MPI_File}) over the core's {@link OpenFile}: open, close and delete with access modes,
 * size, hints, views, reads and writes at explicit offsets and through the individual and shared file pointers,
 * collective, ordered and split-collective forms, and error handlers ({@code MPI.ERRORS_RETURN} unless set
 * otherwise, as MPI says for files). A call on a closed file is {@code ERR_FILE}.
 *
 * <p>Blocking calls take an array or a buffer; nonblocking ones a direct buffer, as Open MPI's bindings. The
 * nonblocking forms ({@code iRead}…) do the access at once and return a completed request; a split collective's
 * begin does the collective access and its end returns the status.
 */
public final class File {
    private final OpenFile file;
    private Datatype etype = MPI.BYTE;
    private Datatype filetype = MPI.BYTE;
    private String datarep = "native";
    /** The status a split collective's begin left for its end; {@code null} when none is active. */
    private Status splitStatus;

    /** {@code MPI_File_open}: collective over {@code comm}. */
    public File(Comm comm, String filename, int amode) throws MPIException {
        this(comm, filename, amode, MPI.INFO_NULL);
    }

    /** {@code MPI_File_open} with hints: collective over {@code comm}. */
    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        if (comm == null) {
            throw Errors.invalidCommunicator(null);
        }
        Communicator c = comm.core();
        try {
            this.file = OpenFile.open(c, filename, amode, info == null ? java.util.Map.of() : info.entries());
        } catch (DeviceException e) {
            throw Errors.onFileNull("MPI_File_open", e);
        }
    }

    /** {@code MPI_File_close}: collective. */
    public void close() throws MPIException {
        run("MPI_File_close", OpenFile::close);
    }

    /** {@code MPI_File_delete}. */
    public static void delete(String filename) throws MPIException {
        delete(filename, MPI.INFO_NULL);
    }

    /** {@code MPI_File_delete}: {@code ERR_NO_SUCH_FILE} if there is no such file. */
    public static void delete(String filename, Info info) throws MPIException {
        try {
            OpenFile.delete(filename);
        } catch (DeviceException e) {
            throw Errors.onFileNull("MPI_File_delete", e);
        }
    }

    // ------------------------------------------------------------------ running calls

    @FunctionalInterface
    private interface FileStep {
        void run(OpenFile f);
    }

    @FunctionalInterface
    private interface FileValue<T> {
        T get(OpenFile f);
    }

    private OpenFile usable(String call) throws MPIException {
        if (file.isClosed()) {
            throw Errors.onWorld(call, ErrorClass.ERR_FILE, "the file has been closed");
        }
        return file;
    }

    private void run(String call, FileStep step) throws MPIException {
        OpenFile f = usable(call);
        try {
            step.run(f);
        } catch (DeviceException e) {
            throw Errors.raise(f, call, e);
        }
    }

    private <T> T value(String call, FileValue<T> step) throws MPIException {
        OpenFile f = usable(call);
        try {
            return step.get(f);
        } catch (DeviceException e) {
            throw Errors.raise(f, call, e);
        }
    }

    private Status access(String call, Positioning positioning, long offset, Object buf, int count, Datatype type,
                          boolean write, boolean collective) throws MPIException {
        return access(call, positioning, offset, buf, count, type, write, collective, null);
    }

    /** An access that {@code refused} already (see {@link OpenFile#access}), or not when it is {@code null}. */
    private Status access(String call, Positioning positioning, long offset, Object buf, int count, Datatype type,
                          boolean write, boolean collective, DeviceException refused) throws MPIException {
        long bytes = value(call, f -> f.access(positioning, offset, buf, count, Datatype.descriptorOf(type), write,
                collective, refused));
        return new Status(Ranks.ANY_SOURCE, Ranks.ANY_TAG, ErrorClass.SUCCESS, false, bytes);
    }

    /**
     * A nonblocking access: done at once, its status in a completed request. A buffer that is not direct is refused
     * ({@code ERR_BUFFER}); in a collective form the rank still takes part, so that every rank fails.
     */
    private Request started(String call, Positioning positioning, long offset, Buffer buf, int count,
                            Datatype type, boolean write, boolean collective) throws MPIException {
        DeviceException refused = buf != null && !buf.isDirect() ? MpiErrors.error(ErrorClass.ERR_BUFFER,
                "a nonblocking access needs a direct buffer") : null;
        Status status = access(call, positioning, offset, buf, count, type, write, collective, refused);
        DeviceRequest done = new DeviceRequest();
        done.complete(Ranks.ANY_SOURCE, Ranks.ANY_TAG, status.bytes(), ErrorClass.SUCCESS);
        return new Request(file.communicator(), done);
    }

    private void begin(String call, Positioning positioning, long offset, Object buf, int count, Datatype type,
                       boolean write) throws MPIException {
        if (splitStatus != null) {
            throw Errors.raise(usable(call), call, MpiErrors.error(ErrorClass.ERR_OTHER,
                    "a split collective is already active on this file"));
        }
        splitStatus = access(call, positioning, offset, buf, count, type, write, true);
    }

    private Status end(String call) throws MPIException {
        Status status = splitStatus;
        if (status == null) {
            throw Errors.raise(usable(call), call, MpiErrors.error(ErrorClass.ERR_OTHER,
                    "no split collective is active on this file"));
        }
        splitStatus = null;
        return status;
    }

    // ------------------------------------------------------------------ the file as an object

    /** {@code MPI_File_set_size}: collective. */
    public void setSize(long size) throws MPIException {
        run("MPI_File_set_size", f -> f.resize(size, true));
    }

    /** {@code MPI_File_preallocate}: collective; the file grows to at least {@code size} bytes. */
    public void preallocate(long size) throws MPIException {
        run("MPI_File_preallocate", f -> f.resize(size, false));
    }

    /** {@code MPI_File_get_size}. */
    public long getSize() throws MPIException {
        return value("MPI_File_get_size", OpenFile::size);
    }

    /** {@code MPI_File_get_group}: the group of the communicator the file was opened on. */
    public Group getGroup() throws MPIException {
        Communicator c = usable("MPI_File_get_group").communicator();
        return new Group(c.group(), c.device().rank());
    }

    /** {@code MPI_File_get_amode}. */
    public int getAMode() throws MPIException {
        return usable("MPI_File_get_amode").amode();
    }

    /** {@code MPI_File_set_info}: adds the hints; Weft reads none of them yet. */
    public void setInfo(Info info) throws MPIException {
        java.util.Map<String, String> hints = info == null ? java.util.Map.of() : info.entries();
        run("MPI_File_set_info", f -> f.setInfo(hints));
    }

    /** {@code MPI_File_get_info}: a new info object with the hints given so far. */
    public Info getInfo() throws MPIException {
        return Info.of(usable("MPI_File_get_info").info());
    }

    /** {@code MPI_File_set_view}: collective. */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep) throws MPIException {
        setView(disp, etype, filetype, datarep, MPI.INFO_NULL);
    }

    /** {@code MPI_File_set_view}: collective; {@code datarep} must be "native". */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info)
            throws MPIException {
        run("MPI_File_set_view", f -> f.setView(disp, Datatype.descriptorOf(etype), Datatype.descriptorOf(filetype),
                datarep));
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
        if (info != null && info != MPI.INFO_NULL) {
            setInfo(info);
        }
    }

    /** {@code MPI_File_get_view}: the displacement, types and representation of the last {@link #setView}. */
    public FileView getView() {
        return new FileView(file.disp(), etype, filetype, datarep);
    }

    /** {@code MPI_File_get_type_extent}: in the "native" representation, the type's extent. */
    public int getTypeExtent(Datatype type) throws MPIException {
        return Math.toIntExact(value("MPI_File_get_type_extent", f -> TypeDescriptor.check(
                Datatype.descriptorOf(type)).extent()));
    }

    /** {@code MPI_File_set_atomicity}: collective. */
    public void setAtomicity(boolean flag) throws MPIException {
        run("MPI_File_set_atomicity", f -> f.setAtomicity(flag));
    }

    /** {@code MPI_File_get_atomicity}. */
    public boolean getAtomicity() throws MPIException {
        return usable("MPI_File_get_atomicity").atomicity();
    }

    /** {@code MPI_File_sync}: collective. */
    public void sync() throws MPIException {
        run("MPI_File_sync", OpenFile::sync);
    }

    /** {@code MPI_File_set_errhandler}. */
    public void setErrhandler(Errhandler handler) throws MPIException {
        if (handler == null) {
            throw Errors.raise(usable("MPI_File_set_errhandler"), "MPI_File_set_errhandler", MpiErrors.error(
                    ErrorClass.ERR_ARG, "the error handler is null"));
        }
        usable("MPI_File_set_errhandler").setErrorMode(handler.mode());
    }

    /** {@code MPI_File_get_errhandler}. */
    public Errhandler getErrhandler() throws MPIException {
        return Errhandler.of(usable("MPI_File_get_errhandler").errorMode());
    }

    /** {@code MPI_File_call_errhandler}: returns under {@code ERRORS_RETURN}, aborts under ERRORS_ARE_FATAL. */
    public void callErrhandler(int errorCode) throws MPIException {
        Errors.raise(usable("MPI_File_call_errhandler"), "MPI_File_call_errhandler", MpiErrors.error(errorCode,
                "error raised by the program through callErrhandler"));
    }

    // ------------------------------------------------------------------ explicit offsets

    /** {@code MPI_File_read_at}: {@code offset} counts etypes of the view. */
    public Status readAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_at", Positioning.EXPLICIT, offset, buf, count, type, false, false);
    }

    /** {@code MPI_File_read_at_all}: collective. */
    public Status readAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_at_all", Positioning.EXPLICIT, offset, buf, count, type, false, true);
    }

    /** {@code MPI_File_write_at}. */
    public Status writeAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_at", Positioning.EXPLICIT, offset, buf, count, type, true, false);
    }

    /** {@code MPI_File_write_at_all}: collective. */
    public Status writeAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_at_all", Positioning.EXPLICIT, offset, buf, count, type, true, true);
    }

    /** {@code MPI_File_iread_at}. */
    public Request iReadAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return started("MPI_File_iread_at", Positioning.EXPLICIT, offset, buf, count, type, false, false);
    }

    /** {@code MPI_File_iread_at_all}. */
    public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return started("MPI_File_iread_at_all", Positioning.EXPLICIT, offset, buf, count, type, false, true);
    }

    /** {@code MPI_File_iwrite_at}. */
    public Request iWriteAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return started("MPI_File_iwrite_at", Positioning.EXPLICIT, offset, buf, count, type, true, false);
    }

    /** {@code MPI_File_iwrite_at_all}. */
    public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return started("MPI_File_iwrite_at_all", Positioning.EXPLICIT, offset, buf, count, type, true, true);
    }

    // ------------------------------------------------------------------ individual file pointer

    /** {@code MPI_File_read}. */
    public Status read(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read", Positioning.INDIVIDUAL, 0, buf, count, type, false, false);
    }

    /** {@code MPI_File_read_all}: collective. */
    public Status readAll(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_all", Positioning.INDIVIDUAL, 0, buf, count, type, false, true);
    }

    /** {@code MPI_File_write}. */
    public Status write(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write", Positioning.INDIVIDUAL, 0, buf, count, type, true, false);
    }

    /** {@code MPI_File_write_all}: collective. */
    public Status writeAll(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_all", Positioning.INDIVIDUAL, 0, buf, count, type, true, true);
    }

    /** {@code MPI_File_iread}. */
    public Request iRead(Buffer buf, int count, Datatype type) throws MPIException {
        return started("MPI_File_iread", Positioning.INDIVIDUAL, 0, buf, count, type, false, false);
    }

    /** {@code MPI_File_iread_all}. */
    public Request iReadAll(Buffer buf, int count, Datatype type) throws MPIException {
        return started("MPI_File_iread_all", Positioning.INDIVIDUAL, 0, buf, count, type, false, true);
    }

    /** {@code MPI_File_iwrite}. */
    public Request iWrite(Buffer buf, int count, Datatype type) throws MPIException {
        return started("MPI_File_iwrite", Positioning.INDIVIDUAL, 0, buf, count, type, true, false);
    }

    /** {@code MPI_File_iwrite_all}. */
    public Request iWriteAll(Buffer buf, int count, Datatype type) throws MPIException {
        return started("MPI_File_iwrite_all", Positioning.INDIVIDUAL, 0, buf, count, type, true, true);
    }

    /** {@code MPI_File_seek}: {@code whence} is {@code MPI.SEEK_SET}, {@code SEEK_CUR} or {@code SEEK_END}. */
    public void seek(long offset, int whence) throws MPIException {
        run("MPI_File_seek", f -> f.seek(offset, whence));
    }

    /** {@code MPI_File_get_position}: in etypes of the view. */
    public long getPosition() throws MPIException {
        return value("MPI_File_get_position", OpenFile::position);
    }

    /** {@code MPI_File_get_byte_offset}: the file byte of etype {@code offset} of the view. */
    public long getByteOffset(long offset) throws MPIException {
        return value("MPI_File_get_byte_offset", f -> f.byteOffset(offset));
    }

    // ------------------------------------------------------------------ shared file pointer

    /** {@code MPI_File_read_shared}. */
    public Status readShared(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_shared", Positioning.SHARED, 0, buf, count, type, false, false);
    }

    /** {@code MPI_File_write_shared}. */
    public Status writeShared(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_shared", Positioning.SHARED, 0, buf, count, type, true, false);
    }

    /** {@code MPI_File_iread_shared}. */
    public Request iReadShared(Buffer buf, int count, Datatype type) throws MPIException {
        return started("MPI_File_iread_shared", Positioning.SHARED, 0, buf, count, type, false, false);
    }

    /** {@code MPI_File_iwrite_shared}. */
    public Request iWriteShared(Buffer buf, int count, Datatype type) throws MPIException {
        return started("MPI_File_iwrite_shared", Positioning.SHARED, 0, buf, count, type, true, false);
    }

    /** {@code MPI_File_read_ordered}: collective; the ranks' parts follow each other in rank order. */
    public Status readOrdered(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_ordered", Positioning.ORDERED, 0, buf, count, type, false, false);
    }

    /** {@code MPI_File_write_ordered}: collective; the ranks' parts follow each other in rank order. */
    public Status writeOrdered(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_ordered", Positioning.ORDERED, 0, buf, count, type, true, false);
    }

    /** {@code MPI_File_seek_shared}: collective. */
    public void seekShared(long offset, int whence) throws MPIException {
        run("MPI_File_seek_shared", f -> f.seekShared(offset, whence));
    }

    /** {@code MPI_File_get_position_shared}: in etypes of the view. */
    public long getPositionShared() throws MPIException {
        return value("MPI_File_get_position_shared", OpenFile::positionShared);
    }

    // ------------------------------------------------------------------ split collectives

    /** {@code MPI_File_read_at_all_begin}. */
    public void readAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_read_at_all_begin", Positioning.EXPLICIT, offset, buf, count, type, false);
    }

    /** {@code MPI_File_read_at_all_end}. */
    public Status readAtAllEnd(Object buf) throws MPIException {
        return end("MPI_File_read_at_all_end");
    }

    /** {@code MPI_File_write_at_all_begin}. */
    public void writeAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_write_at_all_begin", Positioning.EXPLICIT, offset, buf, count, type, true);
    }

    /** {@code MPI_File_write_at_all_end}. */
    public Status writeAtAllEnd(Object buf) throws MPIException {
        return end("MPI_File_write_at_all_end");
    }

    /** {@code MPI_File_read_all_begin}. */
    public void readAllBegin(Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_read_all_begin", Positioning.INDIVIDUAL, 0, buf, count, type, false);
    }

    /** {@code MPI_File_read_all_end}. */
    public Status readAllEnd(Object buf) throws MPIException {
        return end("MPI_File_read_all_end");
    }

    /** {@code MPI_File_write_all_begin}. */
    public void writeAllBegin(Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_write_all_begin", Positioning.INDIVIDUAL, 0, buf, count, type, true);
    }

    /** {@code MPI_File_write_all_end}. */
    public Status writeAllEnd(Object buf) throws MPIException {
        return end("MPI_File_write_all_end");
    }

    /** {@code MPI_File_read_ordered_begin}. */
    public void readOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_read_ordered_begin", Positioning.ORDERED, 0, buf, count, type, false);
    }

    /** {@code MPI_File_read_ordered_end}. */
    public Status readOrderedEnd(Object buf) throws MPIException {
        return end("MPI_File_read_ordered_end");
    }

    /** {@code MPI_File_write_ordered_begin}. */
    public void writeOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        begin("MPI_File_write_ordered_begin", Positioning.ORDERED, 0, buf, count, type, true);
    }

    /** {@code MPI_File_write_ordered_end}. */
    public Status writeOrderedEnd(Object buf) throws MPIException {
        return end("MPI_File_write_ordered_end");
    }
}
