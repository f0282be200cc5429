package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.weft.adi.ErrorClass;

/** Key/value hints ({@code MPI_Info}). Weft keeps them but does not act on any key yet. */
public final class Info implements Freeable, Cloneable {
    private final Map<String, String> entries = new LinkedHashMap<>();
    private final boolean predefined;
    private boolean freed;

    /** {@code MPI_Info_create}. */
    public Info() throws MPIException {
        this(false);
    }

    private Info(boolean predefined) {
        this.predefined = predefined;
    }

    static Info predefined() {
        return new Info(true);
    }

    private Map<String, String> usable(String call, boolean modify) throws MPIException {
        if (freed || (predefined && modify)) {
            throw Errors.plain(call, ErrorClass.ERR_INFO, freed ? "the info object has been freed"
                    : "a predefined info object cannot be changed");
        }
        return entries;
    }

    /** {@code MPI_Info_set}. */
    public synchronized void set(String key, String value) throws MPIException {
        usable("MPI_Info_set", true).put(key, value);
    }

    /** {@code MPI_Info_get}: the value, or null when the key is not set. */
    public synchronized String get(String key) throws MPIException {
        return usable("MPI_Info_get", false).get(key);
    }

    /** {@code MPI_Info_delete}: {@code ERR_INFO_NOKEY} when the key is not set. */
    public synchronized void delete(String key) throws MPIException {
        if (usable("MPI_Info_delete", true).remove(key) == null) {
            throw Errors.plain("MPI_Info_delete", ErrorClass.ERR_INFO_NOKEY, "no key " + key);
        }
    }

    /** {@code MPI_Info_get_nkeys}. */
    public synchronized int size() throws MPIException {
        return usable("MPI_Info_get_nkeys", false).size();
    }

    /** {@code MPI_Info_get_nthkey}. */
    public synchronized String getKey(int keynum) throws MPIException {
        List<String> keys = new ArrayList<>(usable("MPI_Info_get_nthkey", false).keySet());
        if (keynum < 0 || keynum >= keys.size()) {
            throw Errors.plain("MPI_Info_get_nthkey", ErrorClass.ERR_ARG, "no key number " + keynum);
        }
        return keys.get(keynum);
    }

    /** {@link #dup()}, with errors as unchecked exceptions. */
    @Override
    public Info clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new RuntimeException(e.getMessage(), e);
        }
    }

    /** {@code MPI_Info_dup}. */
    public synchronized Info dup() throws MPIException {
        Info copy = new Info(false);
        copy.entries.putAll(usable("MPI_Info_dup", false));
        return copy;
    }

    /** {@code MPI_Info_free}. */
    public synchronized void free() throws MPIException {
        usable("MPI_Info_free", true);
        freed = true;
    }

    public synchronized boolean isNull() {
        return freed || this == MPI.INFO_NULL;
    }
}
