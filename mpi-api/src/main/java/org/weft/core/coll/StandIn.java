package org.weft.core.coll;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;
import org.weft.core.datatype.BufferMapping;
import org.weft.core.datatype.EnclosingMemory;
import org.weft.core.datatype.TypeDescriptor;
import org.weft.core.error.MpiErrors;

/**
 * Room laid out as a user's buffer of {@code count} items of a type (native order, grown as needed and kept), for a
 * collective path whose steps need a buffer this rank cannot give: a reduce's partial result at a site's leader that
 * is not the root, or a stand-in for a receive buffer that is read-only or too short. A collective made of several
 * steps in which this rank passes data on (two levels; a reduction in chunks, where every member combines a share)
 * must not stop at such a buffer: the others would wait for it forever, and the internal calls would fall out of
 * step. It runs to its end through the stand-in instead, and the rank's error is raised then.
 */
public final class StandIn {
    private ByteBuffer room;

    /** Room for {@code count} items of {@code type} laid out as in a user's buffer (items below 0 included). */
    public Object of(int count, TypeDescriptor type) {
        long low = Math.min(0, type.lowestByte(Math.max(count, 1)));
        long high = type.highestByte(Math.max(count, 1));
        int bytes = Math.toIntExact(high - low);
        if (room == null || room.capacity() < bytes) {
            room = ByteBuffer.allocateDirect(Math.max(bytes, 64)).order(ByteOrder.nativeOrder());
        }
        if (low == 0) {
            return room;
        }
        // index 0 where the type's items start; the bytes below it lie in room, which the bounds check must know
        return EnclosingMemory.sliced(room.slice((int) -low, bytes + (int) low).order(ByteOrder.nativeOrder()), room);
    }

    /**
     * {@code ERR_BUFFER}, returned, when this rank cannot receive {@code count} items of {@code type} into
     * {@code buffer}: it is read-only, null or too short; {@code null} when it can. The other argument errors (a
     * negative count, a bad type), which every member makes alike, are thrown.
     */
    public static DeviceException unwritable(Object buffer, int count, TypeDescriptor type) {
        DeviceException unreadable = unreadable(buffer, count, type);
        if (unreadable != null) {
            return unreadable;
        }
        return buffer instanceof Buffer b && b.isReadOnly()
                ? MpiErrors.error(ErrorClass.ERR_BUFFER, "cannot receive into a read-only buffer") : null;
    }

    /** As {@link #unwritable}, for reading {@code buffer}: {@code ERR_BUFFER} when it is null or too short. */
    public static DeviceException unreadable(Object buffer, int count, TypeDescriptor type) {
        try {
            BufferMapping.checkedBytes(buffer, count, type);
            return null;
        } catch (DeviceException e) {
            if (e.errorClass() != ErrorClass.ERR_BUFFER) {
                throw e;
            }
            return e;
        }
    }

    /**
     * The input of a reduction at a rank that cannot receive into {@code recvbuf} ({@code unwritable}) and runs it
     * through a stand-in: the send buffer, or in place ({@code sendbuf == null}) the receive buffer when it can be
     * read ({@code items} of {@code type}: it is read-only); else {@code unwritable} is thrown now.
     */
    public static Object input(Object sendbuf, Object recvbuf, int items, TypeDescriptor type,
                               DeviceException unwritable) {
        if (sendbuf != null) {
            return sendbuf;
        }
        if (unreadable(recvbuf, items, type) != null) {
            throw unwritable;
        }
        return recvbuf;
    }

    /**
     * Raises the error of a receive buffer this rank could not write ({@code null}: none) once the call ran to its
     * end through a stand-in.
     */
    public static void raise(DeviceException unwritable) {
        if (unwritable != null) {
            throw unwritable;
        }
    }
}
