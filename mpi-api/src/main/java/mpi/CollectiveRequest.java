package mpi;

import org.weft.core.coll.sched.Schedule;
import org.weft.core.comm.Communicator;

/**
 * The request of a nonblocking collective: its schedule runs above the device, so every wait or test advances it
 * (and the other outstanding collectives of the communicator, which a peer may be waiting for first) as well as
 * making device progress. The schedule's completion request serves as the request's device operation.
 */
final class CollectiveRequest extends Request {
    private final Schedule schedule;

    CollectiveRequest(Communicator comm, Schedule schedule) {
        super(comm, schedule.completion());
        this.schedule = schedule;
        comm.collectives().started(schedule);
        schedule.start();
    }

    /** Advances this collective, then the communicator's others, which forget it once it is complete. */
    @Override
    boolean advance() {
        boolean done = schedule.getAsBoolean();
        comm.collectives().advanceAll();
        return done;
    }

    @Override
    void awaitCompletion() {
        comm.device().await(this::advance);
    }
}
