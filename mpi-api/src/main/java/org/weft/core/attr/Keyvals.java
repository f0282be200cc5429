package org.weft.core.attr;

import java.util.BitSet;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * The keyvals of one process ({@code MPI_Comm_create_keyval}, {@code MPI_Comm_free_keyval}). Keyvals below
 * {@link #FIRST_USER_KEYVAL} are the predefined attributes ({@code MPI.TAG_UB} … {@code MPI.UNIVERSE_SIZE}),
 * which cannot be set, deleted or freed. Every user keyval copies its attribute to a duplicate communicator
 * (the Open MPI Java bindings' behaviour).
 */
public final class Keyvals {
    /** The first keyval handed to programs; the ones below are predefined. */
    public static final int FIRST_USER_KEYVAL = 16;

    private final BitSet live = new BitSet();
    private int next = FIRST_USER_KEYVAL;

    /** {@code MPI_Comm_create_keyval}. */
    public synchronized int create() {
        int keyval = next++;
        live.set(keyval);
        return keyval;
    }

    /** {@code MPI_Comm_free_keyval}: attributes already set stay readable, as MPI allows. */
    public synchronized void free(int keyval) {
        checkUser(keyval);
        live.clear(keyval);
    }

    /** True for a keyval created by the program and not yet freed. */
    public synchronized boolean isLive(int keyval) {
        return keyval >= FIRST_USER_KEYVAL && live.get(keyval);
    }

    /** {@code ERR_KEYVAL} unless {@code keyval} is a live user keyval. */
    public void checkUser(int keyval) {
        if (!isLive(keyval)) {
            throw MpiErrors.error(ErrorClass.ERR_KEYVAL, keyval < FIRST_USER_KEYVAL && keyval >= 0
                    ? "keyval " + keyval + " is predefined" : "invalid keyval " + keyval);
        }
    }

    /** True if {@code keyval} was ever handed out (a freed one can still be read where set). */
    public synchronized boolean wasCreated(int keyval) {
        return keyval >= FIRST_USER_KEYVAL && keyval < next;
    }
}
