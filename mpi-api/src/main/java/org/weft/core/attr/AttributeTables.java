package org.weft.core.attr;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * The attribute tables of one kind of MPI object that does not hold its own (datatypes: the predefined ones are
 * shared by every runtime in a JVM, so their attributes must live in the runtime), looked up by the object's core
 * handle. A table is made on the first {@code set}; tables of handles nobody references any more go with them.
 * Thread-safe.
 *
 * @param <K> the core handle type; its {@code equals} must be identity
 */
public final class AttributeTables<K> {
    private final Map<K, AttributeTable> tables = new WeakHashMap<>();

    /** The table of {@code owner}, made if it has none yet (for {@code set}). */
    public synchronized AttributeTable of(K owner) {
        return tables.computeIfAbsent(owner, k -> new AttributeTable());
    }

    /** The table of {@code owner}, or {@code null} if nothing was ever set on it (for {@code get}, {@code delete}). */
    public synchronized AttributeTable find(K owner) {
        return tables.get(owner);
    }

    /** A duplicate's attributes: a copy of {@code original}'s, as for communicators. */
    public synchronized void copy(K original, K duplicate) {
        AttributeTable table = tables.get(original);
        if (table != null) {
            tables.put(duplicate, table.copyForDup());
        }
    }

    /** Drops the attributes of a freed object. */
    public synchronized void remove(K owner) {
        tables.remove(owner);
    }
}
