package org.weft.adi.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ReentrantSpinLockTest {
    private final ReentrantSpinLock lock = new ReentrantSpinLock();
    private long counter;

    @Test
    void itsHolderTakesItAgainAndOnlyTheLastUnlockFreesIt() throws Exception {
        lock.lock();
        assertTrue(lock.tryLock());
        lock.unlock();
        assertTrue(lock.isHeldByCurrentThread());
        assertFalse(CompletableFuture.supplyAsync(lock::tryLock).get(10, TimeUnit.SECONDS),
                "another thread took a lock still held once");
        lock.unlock();
        assertFalse(lock.isHeldByCurrentThread());
        assertTrue(CompletableFuture.supplyAsync(() -> {
            boolean taken = lock.tryLock();
            lock.unlock();
            return taken;
        }).get(10, TimeUnit.SECONDS), "a freed lock could not be taken by another thread");
    }

    @Test
    @Timeout(60)
    void nestedSectionsOfSeveralThreadsExcludeEachOther() throws Exception {
        int threads = 4;
        int rounds = 200_000;
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    lock.lock();
                    try {
                        long seen = counter;
                        lock.lock(); // an inner section, as a handler answering through the same module
                        try {
                            counter = seen + 1;
                        } finally {
                            lock.unlock();
                        }
                    } finally {
                        lock.unlock();
                    }
                }
            });
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        assertEquals((long) threads * rounds, counter, "increments lost: two threads were inside at once");
    }
}
