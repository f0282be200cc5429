package org.weft.core.coll.sched;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.weft.core.coll.sched.ReusableSchedules.Kind;

/**
 * What a communicator keeps: idle schedules are found again by their arguments, the idle one used longest ago makes
 * room, a busy one is never given away, and the user buffers they hold stay within
 * {@link ReusableSchedules#MOST_BYTES_HELD_IN_ALL}.
 */
class ReusableSchedulesTest {
    private static final long ALL = ReusableSchedules.MOST_BYTES_HELD_IN_ALL;

    private final ReusableSchedules kept = new ReusableSchedules();
    private int tags;

    /** A schedule with no steps, run to its end, as a kept one is between calls. */
    private Schedule ran() {
        Schedule schedule = new Schedule(null, 0, tags++);
        schedule.run();
        return schedule;
    }

    /** Keeps a schedule for a bcast of {@code buffer} holding {@code held} bytes, and lets it finish. */
    private Schedule keep(Object buffer, long held) {
        Schedule schedule = ran();
        kept.add(Kind.BCAST, buffer, null, null, null, 1, 0, 0, schedule, held);
        kept.finished(schedule);
        return schedule;
    }

    private Schedule find(Object buffer) {
        Schedule schedule = kept.take(Kind.BCAST, buffer, null, null, null, 1, 0, 0);
        if (schedule != null) {
            kept.finished(schedule);
        }
        return schedule;
    }

    @Test
    void theBuffersKeptStayWithinTheLimitTheIdleUsedLongestAgoMakingRoom() {
        Object first = new Object();
        Object second = new Object();
        Object third = new Object();
        Schedule one = keep(first, ALL / 2);
        keep(second, ALL / 2);
        assertSame(one, find(first)); // used more recently than two now
        keep(third, ALL / 2);
        assertSame(one, find(first), "the entry used more recently stays");
        assertNull(find(second), "the idle entry used longest ago made room");
        assertNotNull(find(third));
    }

    @Test
    void aScheduleHoldingMoreThanTheLimitIsNotKept() {
        Object huge = new Object();
        keep(huge, ALL + 1);
        assertNull(find(huge));
    }

    @Test
    void aBusyScheduleIsNeitherFoundNorEvicted() {
        Object busy = new Object();
        Schedule running = ran();
        kept.add(Kind.BCAST, busy, null, null, null, 1, 0, 0, running, ALL);
        assertNull(kept.take(Kind.BCAST, busy, null, null, null, 1, 0, 0), "it runs: not handed out twice");
        Object other = new Object();
        keep(other, 1);
        assertNull(find(other), "no room while the busy one holds everything");
        kept.finished(running);
        assertSame(running, find(busy));
    }

    @Test
    void aScheduleThatFailedIsDroppedWithTheBytesItHeld() {
        Object failing = new Object();
        Schedule never = new Schedule(null, 0, tags++); // not run: not succeeded
        kept.add(Kind.BCAST, failing, null, null, null, 1, 0, 0, never, ALL);
        kept.finished(never);
        assertNull(find(failing));
        Object next = new Object();
        keep(next, ALL);
        assertNotNull(find(next), "its bytes were given back");
    }
}
