package org.weft.mm.progress;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Times a park through a {@link DoorbellParker} that something ends early, for the doorbell tests. */
public final class ParkTimer {
    private ParkTimer() {
    }

    /**
     * Milliseconds a park of up to 10 s takes when {@code wake} runs 200 ms into it: 200 ms after the parking thread
     * took its start time (not after this thread asked for it, which a loaded machine may start later).
     */
    public static long millisParked(DoorbellParker parker, Runnable wake) throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Long> slept = CompletableFuture.supplyAsync(() -> {
            long start = System.nanoTime();
            started.countDown();
            parker.park(TimeUnit.SECONDS.toNanos(10));
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        });
        started.await();
        Thread.sleep(200);
        wake.run();
        return slept.get(20, TimeUnit.SECONDS);
    }
}
