package org.weft.mm.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.weft.mm.spi.Doorbell;

class DoorbellParkerTest {
    /** A doorbell that records what it is asked (the parker's choices are under test, not a transport). */
    private static class RecordingDoorbellBase implements Doorbell {
        final List<String> calls = new ArrayList<>();
        boolean armed;
        boolean quiet = true;

        @Override
        public void attach(Selector selector) {
            calls.add("attach");
        }

        @Override
        public boolean isArmed() {
            return armed;
        }

        @Override
        public boolean beforeSleep() {
            calls.add("before");
            return quiet;
        }

        @Override
        public void afterSleep() {
            calls.add("after");
        }
    }

    private static final class RecordingDoorbell extends RecordingDoorbellBase {
    }

    /** As above, one that can sleep alone for any time (shm's futex). */
    private static final class SleepingAloneDoorbell extends RecordingDoorbellBase {
        @Override
        public boolean sleepAlone(long nanos, BooleanSupplier done) {
            calls.add("alone " + nanos);
            return true;
        }

        @Override
        public void interrupt() {
            calls.add("interrupt");
        }
    }

    private static DoorbellParker parker(RecordingDoorbellBase... doorbells) {
        List<CountingModule> modules = new ArrayList<>();
        for (RecordingDoorbellBase doorbell : doorbells) {
            modules.add(new CountingModule("test", doorbell));
        }
        return new DoorbellParker(List.copyOf(modules));
    }

    @Test
    void onlyParksOfAMillisecondOrMoreWithAnArmedDoorbellAskTheDoorbells() {
        RecordingDoorbell doorbell = new RecordingDoorbell();
        try (DoorbellParker parker = parker(doorbell)) {
            parker.park(DoorbellParker.MIN_DOORBELL_NANOS);
            parker.park(1_000);
            doorbell.armed = true;
            parker.park(1_000);
            assertEquals(List.of("attach"), doorbell.calls);
            parker.park(DoorbellParker.MIN_DOORBELL_NANOS);
            assertEquals(List.of("attach", "before", "after"), doorbell.calls);
        }
    }

    @Test
    void aDoorbellThatSaysSomethingCameSkipsTheSleepAndARingEndsOne() throws Exception {
        RecordingDoorbell doorbell = new RecordingDoorbell();
        doorbell.armed = true;
        doorbell.quiet = false;
        try (DoorbellParker parker = parker(doorbell)) {
            assertTrue(ParkTimer.millisParked(parker, () -> { }) < 5_000, "no sleep when something came");
            doorbell.quiet = true;
            long slept = ParkTimer.millisParked(parker, parker::ringAll);
            assertTrue(slept >= 100 && slept < 5_000, "slept " + slept + " ms for a ring after 200 ms");
        }
    }

    @Test
    void aWaiterWhoseConditionCameTrueBeforeTheDoorbellsWereArmedDoesNotSleep() throws Exception {
        RecordingDoorbell doorbell = new RecordingDoorbell(); // quiet: no message came
        doorbell.armed = true;
        try (DoorbellParker parker = parker(doorbell)) {
            // a member published a flag in shared memory just before this waiter armed its doorbell, and found it
            // awake, so it rang nothing: the waiter must not sleep out its period for it
            long start = System.nanoTime();
            parker.park(TimeUnit.SECONDS.toNanos(10), () -> true);
            long slept = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(slept < 5_000, "slept " + slept + " ms though its condition was true");
            assertEquals(List.of("attach", "before", "after"), doorbell.calls, "it looked after arming");
        }
    }

    @Test
    void everyParkSleepsInTheOneArmedDoorbellThatCanSleepAloneAndARingAllEndsIt() {
        SleepingAloneDoorbell alone = new SleepingAloneDoorbell();
        try (DoorbellParker parker = parker(alone)) {
            parker.park(1_000); // not armed: a plain park
            alone.armed = true;
            parker.park(1_000); // the oversubscribed back-off's first park: a member's publish must end it
            parker.park(DoorbellParker.MIN_DOORBELL_NANOS);
            parker.ringAll();
            assertEquals(List.of("attach", "alone 1000", "alone " + DoorbellParker.MIN_DOORBELL_NANOS, "interrupt"),
                    alone.calls);
        }
    }

    @Test
    void withAnotherDoorbellArmedTheSelectorDecidesAsBefore() {
        SleepingAloneDoorbell alone = new SleepingAloneDoorbell();
        RecordingDoorbell other = new RecordingDoorbell();
        alone.armed = true;
        other.armed = true;
        try (DoorbellParker parker = parker(alone, other)) {
            parker.park(1_000);
            assertEquals(List.of("attach"), alone.calls, "a short park with two armed doorbells: a plain park");
            assertEquals(List.of("attach"), other.calls);
            parker.park(DoorbellParker.MIN_DOORBELL_NANOS);
            assertEquals(List.of("attach", "before", "after"), other.calls, "a long one: the wake selector");
        }
    }
}
