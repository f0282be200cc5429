package org.weft.mm.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.weft.adi.ErrorClass;
import org.weft.mm.match.RecvRequest;
import org.weft.mm.module.ThreadDumps;

/**
 * Whom a completion wakes. A request any thread may wait for (a nonblocking one) used to wake every waiting thread
 * when it completed: with several threads each waiting for its own request, every completion cost every sleeping
 * thread a wake-up (issue 20). Now it wakes the threads waiting for it, and those waiting for a condition.
 */
class WaitersTest {
    /** Many times what a wake takes even at load 30 (a thread may wait 100s of ms for a core there). */
    private static final long DEADLINE_MILLIS = 30_000;

    private final Waiters waiters = new Waiters();
    private final List<Sleeper> sleepers = new ArrayList<>();

    /** A registered waiter that sleeps until stopped and counts the times it was woken. */
    private final class Sleeper {
        final AtomicInteger wakes = new AtomicInteger();
        volatile boolean stop;
        final Thread thread;

        /** Waits for {@code request}, or for a condition when it is {@code null}. */
        Sleeper(String name, Object request) throws InterruptedException {
            CountDownLatch registered = new CountDownLatch(1);
            thread = Thread.ofPlatform().name(name).daemon().start(() -> {
                int slot = waiters.add(Thread.currentThread(), request);
                registered.countDown();
                while (!stop) {
                    LockSupport.park();
                    if (!stop) {
                        wakes.incrementAndGet();
                    }
                }
                waiters.remove(slot, request == null);
            });
            sleepers.add(this);
            registered.await();
        }
    }

    @AfterEach
    void stopTheSleepers() throws InterruptedException {
        for (Sleeper sleeper : sleepers) {
            sleeper.stop = true;
            LockSupport.unpark(sleeper.thread);
            sleeper.thread.join(DEADLINE_MILLIS);
        }
    }

    @Test
    void aCompletedRequestWakesItsOwnWaitersAndTheWatchersOnly() throws Exception {
        RecvRequest x = new RecvRequest(waiters);
        RecvRequest y = new RecvRequest(waiters);
        Sleeper onX = new Sleeper("on-x", x);
        Sleeper onY = new Sleeper("on-y", y);
        Sleeper onCondition = new Sleeper("on-a-condition", null);

        x.complete(1, 0, 0, ErrorClass.SUCCESS);
        awaitTrue(() -> onX.wakes.get() > 0, "the thread waiting for x wakes");
        awaitTrue(() -> onCondition.wakes.get() > 0, "the thread waiting for a condition wakes");
        Thread.sleep(200);
        assertEquals(0, onY.wakes.get(), "the thread waiting for y sleeps on");
    }

    @Test
    void aMessageArrivingUnexpectedWakesTheWatchersOnly() throws Exception {
        Sleeper onX = new Sleeper("on-x", new RecvRequest(waiters));
        Sleeper onCondition = new Sleeper("on-a-condition", null);

        waiters.wakeWatchers();
        awaitTrue(() -> onCondition.wakes.get() > 0, "the thread waiting for a condition wakes");
        Thread.sleep(200);
        assertEquals(0, onX.wakes.get(), "the thread waiting for its request sleeps on");
    }

    private static void awaitTrue(BooleanSupplier condition, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEADLINE_MILLIS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + DEADLINE_MILLIS + " ms: " + what + "\n" + ThreadDumps.dump());
            }
            Thread.sleep(1);
        }
    }
}
