package org.weft.mm.progress;

import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.weft.adi.idle.Parker;
import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.Doorbell;

/**
 * The park step of this process's idle strategies: a park of a millisecond or more sleeps in the doorbell of the
 * first module that has one armed (tcp with a connection), so that an arrival on it ends the sleep at once; shorter
 * parks, and parks with no armed doorbell, are {@link LockSupport#parkNanos}. (A doorbell waits in the kernel with
 * millisecond resolution, and the short parks of a back-off are over before it would matter.) Other methods' arrivals
 * wait for the end of the sleep, as they would for the end of a park; completions on other threads end it through
 * {@link #ringAll()}.
 */
public final class DoorbellParker implements Parker {
    /** Parks shorter than this do not use a doorbell. */
    static final long MIN_DOORBELL_NANOS = 1_000_000;

    private final Doorbell[] doorbells;

    public DoorbellParker(List<CommModule> modules) {
        this.doorbells = modules.stream().map(CommModule::doorbell).filter(d -> d != null).toArray(Doorbell[]::new);
    }

    @Override
    public void park(long nanos) {
        if (nanos >= MIN_DOORBELL_NANOS) {
            for (Doorbell doorbell : doorbells) {
                if (doorbell.isArmed()) {
                    doorbell.await(nanos);
                    return;
                }
            }
        }
        LockSupport.parkNanos(nanos);
    }

    /** Ends every doorbell sleep (a completion that a sleeping waiter may be waiting for). */
    public void ringAll() {
        for (Doorbell doorbell : doorbells) {
            doorbell.ring();
        }
    }
}
