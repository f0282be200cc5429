package mpi;

/** File of the Open MPI Java bindings; not implemented in Weft yet: every operation raises {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
public final class File {
    /** {@code MPI_File_open} (not implemented in Weft yet). */
    public File(Comm comm, String name, int value) throws MPIException {
        throw Errors.unsupported("MPI_File_open");
    }

    /** {@code MPI_File_open} (not implemented in Weft yet). */
    public File(Comm comm, String name, int value, Info info) throws MPIException {
        throw Errors.unsupported("MPI_File_open");
    }

    /** {@code MPI_File_close} (not implemented in Weft yet). */
    public void close() throws MPIException {
        throw Errors.unsupported("MPI_File_close");
    }

    /** {@code MPI_File_delete} (not implemented in Weft yet). */
    public static void delete(String name) throws MPIException {
        throw Errors.unsupported("MPI_File_delete");
    }

    /** {@code MPI_File_delete} (not implemented in Weft yet). */
    public static void delete(String name, Info info) throws MPIException {
        throw Errors.unsupported("MPI_File_delete");
    }

    /** {@code MPI_File_set_size} (not implemented in Weft yet). */
    public void setSize(long offset) throws MPIException {
        throw Errors.unsupported("MPI_File_set_size");
    }

    /** {@code MPI_File_preallocate} (not implemented in Weft yet). */
    public void preallocate(long offset) throws MPIException {
        throw Errors.unsupported("MPI_File_preallocate");
    }

    /** {@code MPI_File_get_size} (not implemented in Weft yet). */
    public long getSize() throws MPIException {
        throw Errors.unsupported("MPI_File_get_size");
    }

    /** {@code MPI_File_get_group} (not implemented in Weft yet). */
    public Group getGroup() throws MPIException {
        throw Errors.unsupported("MPI_File_get_group");
    }

    /** {@code MPI_File_get_amode} (not implemented in Weft yet). */
    public int getAMode() throws MPIException {
        throw Errors.unsupported("MPI_File_get_amode");
    }

    /** {@code MPI_File_set_info} (not implemented in Weft yet). */
    public void setInfo(Info info) throws MPIException {
        throw Errors.unsupported("MPI_File_set_info");
    }

    /** {@code MPI_File_get_info} (not implemented in Weft yet). */
    public Info getInfo() throws MPIException {
        throw Errors.unsupported("MPI_File_get_info");
    }

    /** {@code MPI_File_set_view} (not implemented in Weft yet). */
    public void setView(long offset, Datatype type, Datatype type2, String name) throws MPIException {
        throw Errors.unsupported("MPI_File_set_view");
    }

    /** {@code MPI_File_set_view} (not implemented in Weft yet). */
    public void setView(long offset, Datatype type, Datatype type2, String name, Info info) throws MPIException {
        throw Errors.unsupported("MPI_File_set_view");
    }

    /** {@code MPI_File_get_view} (not implemented in Weft yet). */
    public FileView getView() {
        throw new UnsupportedOperationException("MPI_File_get_view is not implemented in Weft yet");
    }

    /** {@code MPI_File_read_at} (not implemented in Weft yet). */
    public Status readAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_read_at");
    }

    /** {@code MPI_File_read_at_all} (not implemented in Weft yet). */
    public Status readAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_read_at_all");
    }

    /** {@code MPI_File_write_at} (not implemented in Weft yet). */
    public Status writeAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_write_at");
    }

    /** {@code MPI_File_write_at_all} (not implemented in Weft yet). */
    public Status writeAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_write_at_all");
    }

    /** {@code MPI_File_iread_at} (not implemented in Weft yet). */
    public Request iReadAt(long offset, java.nio.Buffer buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_iread_at");
    }

    /** {@code MPI_File_iread_at_all} (not implemented in Weft yet). */
    public Request iReadAtAll(long offset, java.nio.Buffer buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_iread_at_all");
    }

    /** {@code MPI_File_iwrite_at} (not implemented in Weft yet). */
    public Request iWriteAt(long offset, java.nio.Buffer buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_iwrite_at");
    }

    /** {@code MPI_File_iwrite_at_all} (not implemented in Weft yet). */
    public Request iWriteAtAll(long offset, java.nio.Buffer buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_iwrite_at_all");
    }

    /** {@code MPI_File_read} (not implemented in Weft yet). */
    public Status read(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_read");
    }

    /** {@code MPI_File_read_all} (not implemented in Weft yet). */
    public Status readAll(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_read_all");
    }

    /** {@code MPI_File_write} (not implemented in Weft yet). */
    public Status write(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_write");
    }

    /** {@code MPI_File_write_all} (not implemented in Weft yet). */
    public Status writeAll(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_write_all");
    }

    /** {@code MPI_File_iread} (not implemented in Weft yet). */
    public Request iRead(java.nio.Buffer buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_iread");
    }

    /** {@code MPI_File_iread_all} (not implemented in Weft yet). */
    public Request iReadAll(java.nio.Buffer buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_iread_all");
    }

    /** {@code MPI_File_iwrite} (not implemented in Weft yet). */
    public Request iWrite(java.nio.Buffer buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_iwrite");
    }

    /** {@code MPI_File_iwrite_all} (not implemented in Weft yet). */
    public Request iWriteAll(java.nio.Buffer buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_iwrite_all");
    }

    /** {@code MPI_File_seek} (not implemented in Weft yet). */
    public void seek(long offset, int value) throws MPIException {
        throw Errors.unsupported("MPI_File_seek");
    }

    /** {@code MPI_File_get_position} (not implemented in Weft yet). */
    public long getPosition() throws MPIException {
        throw Errors.unsupported("MPI_File_get_position");
    }

    /** {@code MPI_File_get_byte_offset} (not implemented in Weft yet). */
    public long getByteOffset(long offset) throws MPIException {
        throw Errors.unsupported("MPI_File_get_byte_offset");
    }

    /** {@code MPI_File_read_shared} (not implemented in Weft yet). */
    public Status readShared(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_read_shared");
    }

    /** {@code MPI_File_write_shared} (not implemented in Weft yet). */
    public Status writeShared(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_write_shared");
    }

    /** {@code MPI_File_iread_shared} (not implemented in Weft yet). */
    public Request iReadShared(java.nio.Buffer buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_iread_shared");
    }

    /** {@code MPI_File_iwrite_shared} (not implemented in Weft yet). */
    public Request iWriteShared(java.nio.Buffer buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_iwrite_shared");
    }

    /** {@code MPI_File_read_ordered} (not implemented in Weft yet). */
    public Status readOrdered(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_read_ordered");
    }

    /** {@code MPI_File_write_ordered} (not implemented in Weft yet). */
    public Status writeOrdered(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_write_ordered");
    }

    /** {@code MPI_File_seek_shared} (not implemented in Weft yet). */
    public void seekShared(long offset, int value) throws MPIException {
        throw Errors.unsupported("MPI_File_seek_shared");
    }

    /** {@code MPI_File_get_position_shared} (not implemented in Weft yet). */
    public long getPositionShared() throws MPIException {
        throw Errors.unsupported("MPI_File_get_position_shared");
    }

    /** {@code MPI_File_read_at_all_begin} (not implemented in Weft yet). */
    public void readAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_read_at_all_begin");
    }

    /** {@code MPI_File_read_at_all_end} (not implemented in Weft yet). */
    public Status readAtAllEnd(Object buf) throws MPIException {
        throw Errors.unsupported("MPI_File_read_at_all_end");
    }

    /** {@code MPI_File_write_at_all_begin} (not implemented in Weft yet). */
    public void writeAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_write_at_all_begin");
    }

    /** {@code MPI_File_write_at_all_end} (not implemented in Weft yet). */
    public Status writeAtAllEnd(Object buf) throws MPIException {
        throw Errors.unsupported("MPI_File_write_at_all_end");
    }

    /** {@code MPI_File_read_all_begin} (not implemented in Weft yet). */
    public void readAllBegin(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_read_all_begin");
    }

    /** {@code MPI_File_read_all_end} (not implemented in Weft yet). */
    public Status readAllEnd(Object buf) throws MPIException {
        throw Errors.unsupported("MPI_File_read_all_end");
    }

    /** {@code MPI_File_write_all_begin} (not implemented in Weft yet). */
    public void writeAllBegin(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_write_all_begin");
    }

    /** {@code MPI_File_write_all_end} (not implemented in Weft yet). */
    public Status writeAllEnd(Object buf) throws MPIException {
        throw Errors.unsupported("MPI_File_write_all_end");
    }

    /** {@code MPI_File_read_ordered_begin} (not implemented in Weft yet). */
    public void readOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_read_ordered_begin");
    }

    /** {@code MPI_File_read_ordered_end} (not implemented in Weft yet). */
    public Status readOrderedEnd(Object buf) throws MPIException {
        throw Errors.unsupported("MPI_File_read_ordered_end");
    }

    /** {@code MPI_File_write_ordered_begin} (not implemented in Weft yet). */
    public void writeOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_write_ordered_begin");
    }

    /** {@code MPI_File_write_ordered_end} (not implemented in Weft yet). */
    public Status writeOrderedEnd(Object buf) throws MPIException {
        throw Errors.unsupported("MPI_File_write_ordered_end");
    }

    /** {@code MPI_File_get_type_extent} (not implemented in Weft yet). */
    public int getTypeExtent(Datatype type) throws MPIException {
        throw Errors.unsupported("MPI_File_get_type_extent");
    }

    /** {@code MPI_File_set_atomicity} (not implemented in Weft yet). */
    public void setAtomicity(boolean flag) throws MPIException {
        throw Errors.unsupported("MPI_File_set_atomicity");
    }

    /** {@code MPI_File_get_atomicity} (not implemented in Weft yet). */
    public boolean getAtomicity() throws MPIException {
        throw Errors.unsupported("MPI_File_get_atomicity");
    }

    /** {@code MPI_File_sync} (not implemented in Weft yet). */
    public void sync() throws MPIException {
        throw Errors.unsupported("MPI_File_sync");
    }

    /** {@code MPI_File_set_errhandler} (not implemented in Weft yet). */
    public void setErrhandler(Errhandler arg) throws MPIException {
        throw Errors.unsupported("MPI_File_set_errhandler");
    }

    /** {@code MPI_File_get_errhandler} (not implemented in Weft yet). */
    public Errhandler getErrhandler() throws MPIException {
        throw Errors.unsupported("MPI_File_get_errhandler");
    }

    /** {@code MPI_File_call_errhandler} (not implemented in Weft yet). */
    public void callErrhandler(int value) throws MPIException {
        throw Errors.unsupported("MPI_File_call_errhandler");
    }
}
