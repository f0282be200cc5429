package org.weft.core.coll.shm;

import java.lang.foreign.MemorySegment;

import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.core.error.MpiErrors;

/**
 * The blocks one nonblocking operation through the segment takes from other members ({@link SharedBlockSchedules}),
 * each the way its sender chose: copied out of the sender's slot, or received as the message the sender recorded
 * {@link CommSegment#BY_MESSAGE} for. A schedule's round takes them ({@link #take}), the next waits until
 * {@link #arrived}, then {@link #longest} says how long the longest was, to raise {@code ERR_TRUNCATE} once the
 * operation has run to its end.
 */
final class Arrivals {
    private final CommSegment seg;
    private final int tag;
    private final DeviceRequest[] receives;
    private final long[] rooms;
    private long longest;

    /** For an operation whose messages go under {@code tag} (its schedule's). */
    Arrivals(CommSegment seg, int tag) {
        this.seg = seg;
        this.tag = tag;
        this.receives = new DeviceRequest[seg.ranks()];
        this.rooms = new long[seg.ranks()];
    }

    /**
     * Block {@code index} of what {@code sender} put for operation {@code s} (published) in the slot of
     * {@code slotOf} (a scatter's root puts each member's block in that member's slot; the others their own), into
     * {@code to} at {@code at}, at most {@code room} bytes: copied now, or a receive started when it goes by message.
     */
    void take(long s, int sender, int slotOf, int index, MemorySegment to, long at, long room) {
        long length = seg.length(sender, s);
        if (length == CommSegment.BY_MESSAGE) {
            rooms[sender] = room;
            receives[sender] = seg.startReceive(to.asSlice(at, room), sender, tag);
        } else {
            MemorySegment.copy(seg.slot(s, slotOf), index * length, to, at, Math.min(length, room));
            longest = Math.max(longest, length);
        }
    }

    /** Notes a block this rank took itself, {@code length} bytes long. */
    void took(long length) {
        longest = Math.max(longest, length);
    }

    /** Whether every receive started has completed (a round's condition). */
    boolean arrived() {
        for (DeviceRequest request : receives) {
            if (request != null && !request.isComplete()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The longest block taken (longer than its room: truncated); raises a receive's failure other than
     * truncation.
     */
    long longest() {
        for (int r = 0; r < receives.length; r++) {
            DeviceRequest request = receives[r];
            if (request == null) {
                continue;
            }
            if (request.error() == ErrorClass.ERR_TRUNCATE) {
                longest = Math.max(longest, rooms[r] + 1);
            } else if (request.error() != ErrorClass.SUCCESS) {
                throw MpiErrors.error(request.error(), "a collective's message from a member failed: "
                        + request.failure());
            } else {
                longest = Math.max(longest, request.byteCount());
            }
        }
        return longest;
    }
}
