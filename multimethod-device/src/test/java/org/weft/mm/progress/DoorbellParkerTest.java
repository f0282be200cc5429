package org.weft.mm.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.Doorbell;

class DoorbellParkerTest {
    /** A doorbell that records what it was asked (the parker's choice is under test, not a transport). */
    private static final class RecordingDoorbell implements Doorbell {
        final List<String> calls = new ArrayList<>();
        boolean armed;

        @Override
        public boolean isArmed() {
            return armed;
        }

        @Override
        public void await(long nanos) {
            calls.add("await " + nanos);
        }

        @Override
        public void ring() {
            calls.add("ring");
        }

        @Override
        public void close() {
        }
    }

    private static CommModule withDoorbell(Doorbell doorbell) {
        return new CountingModule("test", doorbell);
    }

    @Test
    void aLongParkSleepsInTheFirstArmedDoorbellAndShortOnesDoNot() {
        RecordingDoorbell unarmed = new RecordingDoorbell();
        RecordingDoorbell armed = new RecordingDoorbell();
        armed.armed = true;
        DoorbellParker parker = new DoorbellParker(List.of(withDoorbell(unarmed), withDoorbell(armed)));
        parker.park(1_000);
        parker.park(DoorbellParker.MIN_DOORBELL_NANOS);
        assertEquals(List.of(), unarmed.calls);
        assertEquals(List.of("await " + DoorbellParker.MIN_DOORBELL_NANOS), armed.calls);
        parker.ringAll();
        assertEquals(List.of("ring"), unarmed.calls);
        assertEquals("ring", armed.calls.getLast());
    }

    @Test
    void withNoArmedDoorbellALongParkIsAPlainPark() {
        RecordingDoorbell unarmed = new RecordingDoorbell();
        DoorbellParker parker = new DoorbellParker(List.of(withDoorbell(unarmed)));
        parker.park(DoorbellParker.MIN_DOORBELL_NANOS);
        assertEquals(List.of(), unarmed.calls);
    }
}
