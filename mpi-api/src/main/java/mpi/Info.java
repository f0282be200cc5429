package mpi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.weft.adi.ErrorClass;
import org.weft.core.RuntimeBinding;
import org.weft.core.RuntimeSlot;

/**
 * Key/value hints ({@code MPI_Info}). Weft keeps them (on communicators too); spawn reads its keys.
 * {@code MPI.INFO_ENV} holds the standard's keys for this process (command, argv, maxprocs, host, arch, wdir,
 * thread_level) once MPI is initialised.
 * Keys longer than {@code MPI.MAX_INFO_KEY} are {@code ERR_INFO_KEY}, values longer than {@code MAX_INFO_VAL}
 * {@code ERR_INFO_VALUE}.
 */
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

    /** A new info object holding {@code entries} (for {@code MPI_Comm_get_info}). */
    static Info of(Map<String, String> entries) {
        Info info = new Info(false);
        info.entries.putAll(entries);
        return info;
    }

    /** A snapshot of the entries, in insertion order; empty for {@code MPI.INFO_NULL}. */
    synchronized Map<String, String> entries() throws MPIException {
        return Collections.unmodifiableMap(new LinkedHashMap<>(usable("MPI_Info", false)));
    }

    private Map<String, String> usable(String call, boolean modify) throws MPIException {
        if (freed || (predefined && modify)) {
            throw Errors.onWorld(call, ErrorClass.ERR_INFO, freed ? "the info object has been freed"
                    : "a predefined info object cannot be changed");
        }
        if (this == MPI.INFO_ENV) {
            // one object for every rank of a JVM (in-process test worlds): the bound rank's environment
            RuntimeSlot slot = RuntimeBinding.slot();
            return slot.isInitialized() && !slot.isFinalized() ? RuntimeBinding.runtime().environmentInfo()
                    : Map.of();
        }
        return entries;
    }

    /** {@code MPI_Info_set}. */
    public synchronized void set(String key, String value) throws MPIException {
        checkKey("MPI_Info_set", key);
        if (value == null || value.isEmpty() || value.length() > MPI.MAX_INFO_VAL) {
            throw Errors.onWorld("MPI_Info_set", ErrorClass.ERR_INFO_VALUE, "the value must have 1 to "
                    + MPI.MAX_INFO_VAL + " characters");
        }
        usable("MPI_Info_set", true).put(key, value);
    }

    /** {@code MPI_Info_get}: the value, or null when the key is not set. */
    public synchronized String get(String key) throws MPIException {
        checkKey("MPI_Info_get", key);
        return usable("MPI_Info_get", false).get(key);
    }

    /** {@code MPI_Info_delete}: {@code ERR_INFO_NOKEY} when the key is not set. */
    public synchronized void delete(String key) throws MPIException {
        checkKey("MPI_Info_delete", key);
        if (usable("MPI_Info_delete", true).remove(key) == null) {
            throw Errors.onWorld("MPI_Info_delete", ErrorClass.ERR_INFO_NOKEY, "no key " + key);
        }
    }

    private static void checkKey(String call, String key) throws MPIException {
        if (key == null || key.isEmpty() || key.length() > MPI.MAX_INFO_KEY) {
            throw Errors.onWorld(call, ErrorClass.ERR_INFO_KEY, "the key must have 1 to " + MPI.MAX_INFO_KEY
                    + " characters");
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
            throw Errors.onWorld("MPI_Info_get_nthkey", ErrorClass.ERR_ARG, "no key number " + keynum);
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
