package org.weft.core.coll.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.weft.adi.Device;
import org.weft.adi.SharedMemory;

/**
 * Which members a publish wakes: a member that waits in the segment for a phase the publish does not reach is left
 * asleep (every such wake-up took a core from the ranks it waits for), any other is woken as before.
 */
class CommSegmentWakeTest {
    /** Shared memory that records the world ranks a publish wakes; nothing else is used. */
    private static final class RecordingWakes implements SharedMemory {
        final List<Integer> woken = new ArrayList<>();

        @Override
        public boolean reaches(int worldRank) {
            return true;
        }

        @Override
        public MemorySegment create(String name, long bytes, Arena arena) {
            throw new UnsupportedOperationException();
        }

        @Override
        public MemorySegment open(String name, long bytes, Arena arena) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void remove(String name) {
        }

        @Override
        public void wake(int worldRank) {
            woken.add(worldRank);
        }
    }

    /** A device whose wait runs {@code whileWaiting} once and returns (the test plays the other member meanwhile). */
    private static Device waitingDevice(Runnable whileWaiting) {
        return (Device) Proxy.newProxyInstance(Device.class.getClassLoader(), new Class<?>[] {Device.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("await")) {
                        whileWaiting.run();
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aPublishBelowThePhaseAMemberAwaitsDoesNotWakeItOneAtOrAboveDoesAndAfterItsWaitAnyDoes() {
        SegmentLayout layout = new SegmentLayout(2);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment memory = arena.allocate(layout.totalBytes, 4096);
            int[] world = {10, 11};
            RecordingWakes rootsWakes = new RecordingWakes();
            CommSegment[] root = new CommSegment[1];
            List<Integer> wokenWhileWaiting = new ArrayList<>();
            Device leafDevice = waitingDevice(() -> {
                root[0].publish(7); // an operation the leaf does not wait for yet
                root[0].publish(8);
                wokenWhileWaiting.addAll(rootsWakes.woken);
            });
            root[0] = new CommSegment(arena, memory, layout, 0, world, rootsWakes, waitingDevice(() -> { }),
                    null, 0, null);
            CommSegment leaf = new CommSegment(arena, memory, layout, 1, world, new RecordingWakes(), leafDevice,
                    null, 0, null);

            leaf.awaitRank(0, 8); // waits in the device: the root publishes 7, then 8
            assertEquals(List.of(11), wokenWhileWaiting, "woken by phase 8 only, not by 7");

            rootsWakes.woken.clear();
            root[0].publish(9);
            assertEquals(List.of(11), rootsWakes.woken, "not waiting in the segment any more: woken by any publish");
        }
    }
}
