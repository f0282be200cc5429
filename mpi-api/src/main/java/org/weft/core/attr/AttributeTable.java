package org.weft.core.attr;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.HashMap;
import java.util.Map;

import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * The attributes cached on one communicator. Values are kept by value, as the Open MPI Java bindings do: stored
 * serialized, so {@link #get} returns an equal copy and later changes to the program's object do not show.
 * Thread-safe.
 */
public final class AttributeTable {
    private final Map<Integer, byte[]> values = new HashMap<>();

    /** {@code MPI_Comm_set_attr}: {@code ERR_ARG} if the value cannot be serialized. */
    public synchronized void set(int keyval, Object value) {
        values.put(keyval, serialize(value));
    }

    /** {@code MPI_Comm_get_attr}: a copy of the value, or {@code null} if none is set. */
    public Object get(int keyval) {
        byte[] bytes;
        synchronized (this) {
            bytes = values.get(keyval);
        }
        return bytes == null ? null : deserialize(bytes);
    }

    /** {@code MPI_Comm_delete_attr}: true if a value was set. */
    public synchronized boolean delete(int keyval) {
        return values.remove(keyval) != null;
    }

    /** The attributes a duplicate communicator receives: every value, the bytes shared (they never change). */
    public synchronized AttributeTable copyForDup() {
        AttributeTable copy = new AttributeTable();
        copy.values.putAll(values);
        return copy;
    }

    private static byte[] serialize(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw MpiErrors.error(ErrorClass.ERR_ARG, "the attribute value cannot be serialized: " + e);
        }
        return bytes.toByteArray();
    }

    private static Object deserialize(byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw MpiErrors.error(ErrorClass.ERR_INTERN, "the attribute value cannot be read back: " + e);
        }
    }
}
