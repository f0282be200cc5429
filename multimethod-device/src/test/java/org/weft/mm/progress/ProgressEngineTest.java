package org.weft.mm.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.weft.adi.idle.BusySpinIdleStrategy;
import org.weft.adi.idle.IdleStrategy;
import org.weft.adi.param.Parameters;
import org.weft.mm.Context;

/** How often a pass polls each module: every pass, every N-th with skip_poll, and thinned out when unused and idle. */
class ProgressEngineTest {
    /** A module that counts its polls and finds work when told to. */
    private final Context context = new Context(0, 2);
    private final CountingModule used = new CountingModule("used");
    private final CountingModule unused = new CountingModule("unused");

    private ProgressEngine engine(Map<String, String> parameters) {
        return new ProgressEngine(context, List.of(used, unused), Parameters.of(parameters), new Waiters(),
                BusySpinIdleStrategy::new);
    }

    private static void passes(ProgressEngine engine, int n) {
        for (int i = 0; i < n; i++) {
            engine.poll();
        }
    }

    @Test
    void anIdleMethodWithoutLinksIsPolledEverySixteenthPassUntilItFindsWork() {
        ProgressEngine engine = engine(Map.of());
        context.counters("used").markLinked();
        passes(engine, ProgressEngine.IDLE_AFTER);
        assertEquals(ProgressEngine.IDLE_AFTER, used.polls);
        assertEquals(ProgressEngine.IDLE_AFTER, unused.polls, "every pass until it has been idle long enough");

        passes(engine, 1600);
        assertEquals(ProgressEngine.IDLE_AFTER + 1600, used.polls, "a linked method is polled on every pass");
        assertEquals(ProgressEngine.IDLE_AFTER + 1600 / ProgressEngine.IDLE_PERIOD, unused.polls);

        unused.workToFind = 1;
        int before = unused.polls;
        passes(engine, ProgressEngine.IDLE_PERIOD); // its next poll finds the work...
        passes(engine, 100); // ...and from then on it is polled on every pass again
        assertTrue(unused.polls >= before + 1 + 100 - ProgressEngine.IDLE_PERIOD, "polls: " + unused.polls);
    }

    @Test
    void anIdleMethodThatGainsALinkIsPolledOnEveryPassAgainWithinSixteenPasses() {
        ProgressEngine engine = engine(Map.of());
        passes(engine, ProgressEngine.IDLE_AFTER + 160);
        assertEquals(ProgressEngine.IDLE_AFTER + 10, unused.polls, "idle: every sixteenth pass");

        context.counters("unused").markLinked();
        int before = unused.polls;
        passes(engine, ProgressEngine.IDLE_PERIOD + 100);
        assertTrue(unused.polls >= before + 100, "polls: " + (unused.polls - before));
    }

    @Test
    void skipPollPollsEveryNthPass() {
        ProgressEngine engine = engine(Map.of("unused_skip_poll", "4"));
        context.counters("unused").markLinked();
        passes(engine, 400);
        assertEquals(400, used.polls);
        assertEquals(100, unused.polls);
    }

    @Test
    void aWaitFlushesWhatModulesHoldBackEvenWhenItNeedNotWaitAndOnlyThen() {
        ProgressEngine engine = engine(Map.of());
        context.start(List.of(used, unused));
        engine.await(() -> true);
        assertEquals(0, used.flushes, "nothing held: no flush");

        context.markHolding();
        engine.await(() -> true); // a blocking send that completed at once still sends what is held
        assertEquals(1, used.flushes);
        assertEquals(1, unused.flushes);

        engine.await(() -> true);
        assertEquals(1, used.flushes, "flushed once: nothing held since");
    }

    @Test
    void whenRanksOutnumberCoresAWaitGoesToItsIdleStrategyAfterOnePassNotSixtyFour() {
        assertEquals(1, passesBeforeIdling(ProgressEngine.yieldsFirst(4, 2)), "4 ranks on 2 cores: at once");
        assertEquals(ProgressEngine.PASSES_BEFORE_IDLING + 1, passesBeforeIdling(ProgressEngine.yieldsFirst(2, 2)),
                "a core per rank: a ping-pong's arrival is caught by the first passes");
    }

    /** The passes a wait made before its first look at its idle strategy (which ends the wait). */
    private int passesBeforeIdling(boolean yieldsFirst) {
        context.counters("used").markLinked();
        boolean[] idled = {false};
        int[] passes = {-1};
        ProgressEngine engine = new ProgressEngine(context, List.of(used, unused), Parameters.of(Map.of()),
                new Waiters(), () -> new IdleStrategy() {
                    @Override
                    public void idle(int workCount) {
                        if (!idled[0]) {
                            passes[0] = used.polls;
                        }
                        idled[0] = true;
                    }

                    @Override
                    public void reset() {
                    }
                }, false, yieldsFirst);
        used.polls = 0;
        engine.await(() -> idled[0]);
        return passes[0];
    }
}
