package org.weft.adi.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ThrottledLogTest {
    private final List<String> lines = new CopyOnWriteArrayList<>();
    /**
     * 2 s, not 300 ms as it was: every step here must fall inside one interval (a flood of 100 lines, then 10 more
     * right after the summary), and this thread may wait 100s of ms for a core on a loaded machine (load 30).
     */
    private static final Duration INTERVAL = Duration.ofSeconds(2);
    private final ThrottledLog log = new ThrottledLog(lines::add, 3, INTERVAL,
            (count, interval, last) -> count + " more in the last " + interval + ", the last " + last);

    @Test
    void aFloodPrintsTheFirstFewThenOneCountPerInterval() throws Exception {
        for (int i = 0; i < 100; i++) {
            log.log("line " + i, "#" + i);
        }
        assertEquals(List.of("line 0", "line 1", "line 2"), lines);
        awaitLines(4);
        assertEquals("97 more in the last 2 s, the last #99", lines.get(3));
        for (int i = 100; i < 110; i++) {
            log.log("line " + i, "#" + i); // the flood goes on: counted, not printed
        }
        awaitLines(5);
        assertEquals("10 more in the last 2 s, the last #109", lines.get(4));
        assertEquals(5, lines.size());
    }

    @Test
    void aQuietIntervalRestoresTheBurstAndFlushPrintsWhatIsCounted() throws Exception {
        for (int i = 0; i < 5; i++) {
            log.log("line " + i, "#" + i);
        }
        log.flush();
        assertEquals(List.of("line 0", "line 1", "line 2", "2 more in the last 2 s, the last #4"), lines);
        // the pending summary (nothing left) and a quiet interval after it, with a second to spare
        Thread.sleep(2 * INTERVAL.toMillis() + 1000);
        assertEquals(4, lines.size(), "nothing more to summarize: " + lines);
        log.log("later", "#later");
        assertEquals("later", lines.getLast());
    }

    private void awaitLines(int count) throws InterruptedException {
        for (int i = 0; i < 1000 && lines.size() < count; i++) { // 20 s: many intervals
            Thread.sleep(20);
        }
        assertTrue(lines.size() >= count, lines.toString());
    }
}
