package mpi;

/** Win of the Open MPI Java bindings; not implemented in Weft yet: every operation raises {@code MPI.ERR_UNSUPPORTED_OPERATION}. */
public final class Win implements Freeable {
    public static final int WIN_NULL = 0;
    public static final int FLAVOR_PRIVATE = 0;
    public static final int FLAVOR_SHARED = 1;

    /** {@code MPI_Win_create} (not implemented in Weft yet). */
    public Win(java.nio.Buffer buf, int count, int value, Info info, Comm comm) throws MPIException {
        throw Errors.unsupported("MPI_Win_create");
    }

    /** {@code MPI_Win_allocate} (not implemented in Weft yet). */
    public Win(int value, int value2, Info info, Comm comm, java.nio.Buffer buf, int count) throws MPIException {
        throw Errors.unsupported("MPI_Win_allocate");
    }

    /** {@code MPI_Win_create_dynamic} (not implemented in Weft yet). */
    public Win(Info info, Comm comm) throws MPIException {
        throw Errors.unsupported("MPI_Win_create_dynamic");
    }

    /** {@code MPI_Win_attach} (not implemented in Weft yet). */
    public void attach(java.nio.Buffer buf, int count) throws MPIException {
        throw Errors.unsupported("MPI_Win_attach");
    }

    /** {@code MPI_Win_detach} (not implemented in Weft yet). */
    public void detach(java.nio.Buffer buf) throws MPIException {
        throw Errors.unsupported("MPI_Win_detach");
    }

    /** {@code MPI_Win_get_group} (not implemented in Weft yet). */
    public Group getGroup() throws MPIException {
        throw Errors.unsupported("MPI_Win_get_group");
    }

    /** {@code MPI_Put} (not implemented in Weft yet). */
    public void put(java.nio.Buffer buf, int count, Datatype type, int root, int value, int value2, Datatype type2) throws MPIException {
        throw Errors.unsupported("MPI_Put");
    }

    /** {@code MPI_Get} (not implemented in Weft yet). */
    public void get(java.nio.Buffer buf, int count, Datatype type, int root, int value, int value2, Datatype type2) throws MPIException {
        throw Errors.unsupported("MPI_Get");
    }

    /** {@code MPI_Accumulate} (not implemented in Weft yet). */
    public void accumulate(java.nio.Buffer buf, int count, Datatype type, int root, int value, int value2, Datatype type2, Op op) throws MPIException {
        throw Errors.unsupported("MPI_Accumulate");
    }

    /** {@code MPI_Win_fence} (not implemented in Weft yet). */
    public void fence(int value) throws MPIException {
        throw Errors.unsupported("MPI_Win_fence");
    }

    /** {@code MPI_Win_start} (not implemented in Weft yet). */
    public void start(Group group, int value) throws MPIException {
        throw Errors.unsupported("MPI_Win_start");
    }

    /** {@code MPI_Win_complete} (not implemented in Weft yet). */
    public void complete() throws MPIException {
        throw Errors.unsupported("MPI_Win_complete");
    }

    /** {@code MPI_Win_post} (not implemented in Weft yet). */
    public void post(Group group, int value) throws MPIException {
        throw Errors.unsupported("MPI_Win_post");
    }

    /** {@code MPI_Win_wait} (not implemented in Weft yet). */
    public void waitFor() throws MPIException {
        throw Errors.unsupported("MPI_Win_wait");
    }

    /** {@code MPI_Win_test} (not implemented in Weft yet). */
    public boolean test() throws MPIException {
        throw Errors.unsupported("MPI_Win_test");
    }

    /** {@code MPI_Win_lock} (not implemented in Weft yet). */
    public void lock(int value, int value2, int value3) throws MPIException {
        throw Errors.unsupported("MPI_Win_lock");
    }

    /** {@code MPI_Win_unlock} (not implemented in Weft yet). */
    public void unlock(int value) throws MPIException {
        throw Errors.unsupported("MPI_Win_unlock");
    }

    /** {@code MPI_Win_set_errhandler} (not implemented in Weft yet). */
    public void setErrhandler(Errhandler arg) throws MPIException {
        throw Errors.unsupported("MPI_Win_set_errhandler");
    }

    /** {@code MPI_Win_get_errhandler} (not implemented in Weft yet). */
    public Errhandler getErrhandler() throws MPIException {
        throw Errors.unsupported("MPI_Win_get_errhandler");
    }

    /** {@code MPI_Win_call_errhandler} (not implemented in Weft yet). */
    public void callErrhandler(int value) throws MPIException {
        throw Errors.unsupported("MPI_Win_call_errhandler");
    }

    /** {@code MPI_Win_create_keyval} (not implemented in Weft yet). */
    public static int createKeyval() throws MPIException {
        throw Errors.unsupported("MPI_Win_create_keyval");
    }

    /** {@code MPI_Win_free_keyval} (not implemented in Weft yet). */
    public static void freeKeyval(int value) throws MPIException {
        throw Errors.unsupported("MPI_Win_free_keyval");
    }

    /** {@code MPI_Win_set_attr} (not implemented in Weft yet). */
    public void setAttr(int value, Object buf) throws MPIException {
        throw Errors.unsupported("MPI_Win_set_attr");
    }

    /** {@code MPI_Win_get_attr} (not implemented in Weft yet). */
    public Object getAttr(int value) throws MPIException {
        throw Errors.unsupported("MPI_Win_get_attr");
    }

    /** {@code MPI_Win_delete_attr} (not implemented in Weft yet). */
    public void deleteAttr(int value) throws MPIException {
        throw Errors.unsupported("MPI_Win_delete_attr");
    }

    /** {@code MPI_Win_free} (not implemented in Weft yet). */
    public void free() throws MPIException {
        throw Errors.unsupported("MPI_Win_free");
    }

    /** {@code MPI_Win_get_info} (not implemented in Weft yet). */
    public Info getInfo() throws MPIException {
        throw Errors.unsupported("MPI_Win_get_info");
    }

    /** {@code MPI_Win_set_info} (not implemented in Weft yet). */
    public void setInfo(Info info) throws MPIException {
        throw Errors.unsupported("MPI_Win_set_info");
    }

    /** {@code MPI_Rput} (not implemented in Weft yet). */
    public final Request rPut(java.nio.Buffer buf, int count, Datatype type, int root, int value, int value2, Datatype type2) throws MPIException {
        throw Errors.unsupported("MPI_Rput");
    }

    /** {@code MPI_Rget} (not implemented in Weft yet). */
    public final Request rGet(java.nio.Buffer buf, int count, Datatype type, int root, int value, int value2, Datatype type2) throws MPIException {
        throw Errors.unsupported("MPI_Rget");
    }

    /** {@code MPI_Raccumulate} (not implemented in Weft yet). */
    public Request rAccumulate(java.nio.Buffer buf, int count, Datatype type, int root, int value, int value2, Datatype type2, Op op) throws MPIException {
        throw Errors.unsupported("MPI_Raccumulate");
    }

    /** {@code MPI_Get_accumulate} (not implemented in Weft yet). */
    public void getAccumulate(java.nio.Buffer sendbuf, int count, Datatype type, java.nio.Buffer recvbuf, int count2, Datatype type2, int root, int value, int value2, Datatype type3, Op op) throws MPIException {
        throw Errors.unsupported("MPI_Get_accumulate");
    }

    /** {@code MPI_Rget_accumulate} (not implemented in Weft yet). */
    public Request rGetAccumulate(java.nio.Buffer sendbuf, int count, Datatype type, java.nio.Buffer recvbuf, int count2, Datatype type2, int root, int value, int value2, Datatype type3, Op op) throws MPIException {
        throw Errors.unsupported("MPI_Rget_accumulate");
    }

    /** {@code MPI_Win_lock_all} (not implemented in Weft yet). */
    public void lockAll(int value) throws MPIException {
        throw Errors.unsupported("MPI_Win_lock_all");
    }

    /** {@code MPI_Win_unlock_all} (not implemented in Weft yet). */
    public void unlockAll() throws MPIException {
        throw Errors.unsupported("MPI_Win_unlock_all");
    }

    /** {@code MPI_Win_sync} (not implemented in Weft yet). */
    public void sync() throws MPIException {
        throw Errors.unsupported("MPI_Win_sync");
    }

    /** {@code MPI_Win_flush} (not implemented in Weft yet). */
    public void flush(int value) throws MPIException {
        throw Errors.unsupported("MPI_Win_flush");
    }

    /** {@code MPI_Win_flush_all} (not implemented in Weft yet). */
    public void flushAll() throws MPIException {
        throw Errors.unsupported("MPI_Win_flush_all");
    }

    /** {@code MPI_Compare_and_swap} (not implemented in Weft yet). */
    public void compareAndSwap(java.nio.Buffer buf, java.nio.Buffer buf2, java.nio.Buffer buf3, Datatype type, int root, int value) throws MPIException {
        throw Errors.unsupported("MPI_Compare_and_swap");
    }

    /** {@code MPI_Fetch_and_op} (not implemented in Weft yet). */
    public void fetchAndOp(java.nio.Buffer sendbuf, java.nio.Buffer recvbuf, Datatype type, int root, int value, Op op) throws MPIException {
        throw Errors.unsupported("MPI_Fetch_and_op");
    }

    /** {@code MPI_Win_flush_local} (not implemented in Weft yet). */
    public void flushLocal(int value) throws MPIException {
        throw Errors.unsupported("MPI_Win_flush_local");
    }

    /** {@code MPI_Win_flush_local_all} (not implemented in Weft yet). */
    public void flushLocalAll() throws MPIException {
        throw Errors.unsupported("MPI_Win_flush_local_all");
    }

    /** {@code MPI_Win_get_name} (not implemented in Weft yet). */
    public String getName() throws MPIException {
        throw Errors.unsupported("MPI_Win_get_name");
    }

    /** {@code MPI_Win_set_name} (not implemented in Weft yet). */
    public void setName(String name) throws MPIException {
        throw Errors.unsupported("MPI_Win_set_name");
    }
}
