package org.weft.core.coll.sched;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

import org.weft.adi.Device;
import org.weft.adi.DeviceException;
import org.weft.adi.DeviceRequest;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import org.weft.adi.SendMode;
import org.weft.core.comm.CollectiveTraffic;
import org.weft.core.error.MpiErrors;

/**
 * One collective operation as a schedule (libNBC's design): rounds of steps. When a round starts, its local steps
 * (copy, combine) run in order and then its sends and receives start; the next round starts when every transfer
 * of this one completed. All traffic goes to world ranks in one context with one tag, the collective's own.
 *
 * <p>Algorithms append to the schedule; {@link #run()} then executes it blocking, or {@link #start()} begins it
 * and each {@link #getAsBoolean()} (called from a request's wait or test, or from {@code Device.await}) advances
 * it as far as it can without blocking, so one implementation serves both the blocking and the nonblocking form.
 *
 * <p>Not thread-safe while being built; once started, concurrent advancing is harmless (one thread advances,
 * the others see the state so far).
 *
 * <p>A schedule is made per call, so it keeps its steps in one array, rounds ended by a marker, rather than in a
 * list per round (which made a blocking barrier allocate twice what it does now).
 */
public final class Schedule implements BooleanSupplier {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);
    private static final DeviceRequest[] NO_TRANSFERS = {};
    private static final Object[] NOTHING_HELD = {};
    private static final VarHandle ADVANCING;

    static {
        try {
            ADVANCING = MethodHandles.lookup().findVarHandle(Schedule.class, "advancing", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private sealed interface Step permits Send, Forward, Receive, Local, Until, EndOfRound {
    }

    /**
     * How much a receive takes. {@code EXACT}: exactly its buffer — an algorithm's own pieces, where any other size
     * means the ranks disagree on counts. {@code UP_TO}: what was sent, up to its buffer, as a point-to-point
     * receive does — a block of the user's buffer that a program may size larger than the data (Open MPI's linear
     * algorithms deliver such short data); the bytes past it stay as they were.
     */
    public enum Fill { EXACT, UP_TO }

    /** Closes a round in {@link #steps}. */
    private enum EndOfRound implements Step { MARK }

    /** The schedule's request, made pending again when a kept schedule runs again. */
    private static final class Completion extends DeviceRequest {
        void again() {
            reuse();
        }
    }

    private record Send(MemorySegment data, int worldRank, int phase) implements Step {
    }

    /** Sends on what {@code source} delivered (its whole buffer unless the message was short). */
    private record Forward(Receive source, int worldRank, int phase) implements Step {
    }

    /** A receive, and how many bytes it delivered when it last ran (read by {@link Forward}s of later rounds). */
    private static final class Receive implements Step {
        final MemorySegment buffer;
        final int worldRank;
        final int phase;
        final Fill fill;
        long delivered;

        Receive(MemorySegment buffer, int worldRank, int phase, Fill fill) {
            this.buffer = buffer;
            this.worldRank = worldRank;
            this.phase = phase;
            this.fill = fill;
        }

        /** The bytes delivered: the buffer itself, or (only after a short message) its first part. */
        MemorySegment data() {
            return delivered == buffer.byteSize() ? buffer : buffer.asSlice(0, delivered);
        }

        @Override
        public String toString() {
            return "receive of " + buffer.byteSize() + " bytes from world rank " + worldRank;
        }
    }

    private record Local(Runnable action) implements Step {
    }

    /** A condition the round waits for besides its transfers (another rank's flag in a shared segment). */
    private record Until(BooleanSupplier condition) implements Step {
    }

    private final Device device;
    private final int context;
    /** The collective's tag: this call's ({@link #restart} gives a kept schedule the next call's). */
    private int tag;
    /** The steps of all rounds in order, each round closed by {@link EndOfRound#MARK}. */
    private Step[] steps = new Step[8];
    private int stepCount;
    /** Transfers (sends and receives) in the round being built, and the most in any closed round. */
    private int transfersBuilt;
    private int mostTransfers;
    private final Completion completion = new Completion();
    /** Whether a thread is advancing the schedule (set by compare-and-set through {@link #ADVANCING}). */
    private volatile boolean advancing;
    /** Where the running round's steps start in {@link #steps}; -1 before the first. */
    private int roundStart = -1;
    /** Where the next round starts: after the running round's mark. */
    private int nextRound;
    /** The running round's transfers, in the order of its transfer steps. */
    private DeviceRequest[] transfers;
    private int transferCount;
    private DeviceException failure;
    /**
     * The user's buffers whose memory the steps read or write ({@link #hold}): a segment over a buffer of
     * {@code MPI.newByteBuffer} does not keep the buffer reachable, and a program may drop a nonblocking call's
     * send buffer before the call completes (Open MPI's Java requests keep theirs too); collected, its memory would
     * go to the next buffer made.
     */
    private Object[] held = NOTHING_HELD;
    private int heldCount;
    /** The nonblocking collectives a blocking {@link #run(CollectiveTraffic)} advances while it waits. */
    private CollectiveTraffic outstanding;
    /** That run's wait condition, made once with the schedule (a kept schedule runs many times). */
    private final BooleanSupplier advancedWithOutstanding = () -> {
        outstanding.advanceAll();
        return getAsBoolean();
    };

    /** An empty schedule for traffic in {@code context} with {@code tag}. */
    public Schedule(Device device, int context, int tag) {
        this.device = device;
        this.context = context;
        this.tag = tag;
    }

    /** The tag of its traffic (a send's in phase 0): a step that starts its own receives takes it. */
    public int tag() {
        return tag;
    }

    /** Sends {@code data} to world rank {@code worldRank} in the current round. */
    public Schedule send(MemorySegment data, int worldRank) {
        return send(data, worldRank, 0);
    }

    /**
     * Sends {@code data} to {@code worldRank} in the current round, in phase {@code phase} (0..255): messages of
     * different phases between the same two processes match by phase instead of by order.
     */
    public Schedule send(MemorySegment data, int worldRank, int phase) {
        transfersBuilt++;
        return add(new Send(data, worldRank, phase));
    }

    /** Sends an empty message (a signal) to world rank {@code worldRank} in the current round. */
    public Schedule signal(int worldRank) {
        return send(EMPTY, worldRank);
    }

    /** Receives exactly {@code buffer.byteSize()} bytes from {@code worldRank} in the current round. */
    public Schedule receive(MemorySegment buffer, int worldRank) {
        return receive(buffer, worldRank, 0, Fill.EXACT);
    }

    /** Receives into {@code buffer} from {@code worldRank} in the current round, as much as {@code fill} says. */
    public Schedule receive(MemorySegment buffer, int worldRank, Fill fill) {
        return receive(buffer, worldRank, 0, fill);
    }

    /** Receives into {@code buffer} what {@code worldRank} sent in phase {@code phase}, as {@code fill} says. */
    public Schedule receive(MemorySegment buffer, int worldRank, int phase, Fill fill) {
        transfersBuilt++;
        return add(new Receive(buffer, worldRank, phase, fill));
    }

    /**
     * Sends to {@code worldRank} what the latest receive into {@code buffer} (in an earlier round) delivered: all of
     * it, or what a short message left there (a relay that passes on short data as it came).
     */
    public Schedule forward(MemorySegment buffer, int worldRank) {
        for (int i = stepCount - 1; i >= 0; i--) {
            if (steps[i] instanceof Receive r && r.buffer == buffer) {
                transfersBuilt++;
                return add(new Forward(r, worldRank, 0));
            }
        }
        throw new IllegalArgumentException("forward of a buffer that no earlier step receives into");
    }

    /** Waits for an empty message (a signal) from world rank {@code worldRank} in the current round. */
    public Schedule awaitSignal(int worldRank) {
        return receive(EMPTY, worldRank);
    }

    /** Runs {@code action} when the current round starts, before its transfers, after the earlier actions. */
    public Schedule local(Runnable action) {
        return add(new Local(action));
    }

    /**
     * Makes the current round wait, besides its transfers, until {@code condition} holds: asked each time the
     * schedule is advanced once the round's transfers completed, so it must not block (the collectives through a
     * shared segment wait so for other ranks' flags).
     */
    public Schedule until(BooleanSupplier condition) {
        return add(new Until(condition));
    }

    /** Keeps {@code buffer} reachable as long as the schedule is (see {@link #held}). */
    public Schedule hold(Object buffer) {
        if (buffer != null) {
            if (heldCount == held.length) {
                held = Arrays.copyOf(held, Math.max(2, 2 * heldCount));
            }
            held[heldCount++] = buffer;
        }
        return this;
    }

    /** Closes the current round: what follows starts only once its transfers completed. */
    public Schedule endRound() {
        if (stepCount > 0 && steps[stepCount - 1] != EndOfRound.MARK) {
            add(EndOfRound.MARK);
            mostTransfers = Math.max(mostTransfers, transfersBuilt);
            transfersBuilt = 0;
        }
        return this;
    }

    private Schedule add(Step step) {
        if (stepCount == steps.length) {
            steps = Arrays.copyOf(steps, stepCount * 2);
        }
        steps[stepCount++] = step;
        return this;
    }

    /** Starts the schedule: runs the first round's local steps and starts its transfers. */
    public Schedule start() {
        endRound();
        if (transfers == null) {
            transfers = mostTransfers == 0 ? NO_TRANSFERS : new DeviceRequest[mostTransfers];
        }
        getAsBoolean();
        return this;
    }

    /** Runs the schedule to completion on this thread; fails with the first error of a step. */
    public void run() {
        start();
        if (!completion.isComplete()) {
            device.await(this);
        }
        throwIfFailed();
    }

    /**
     * Runs the schedule to completion, advancing the communicator's outstanding nonblocking collectives while
     * waiting: a peer may need one of them to move on before it can take part in this one.
     */
    public void run(CollectiveTraffic outstanding) {
        start();
        if (!completion.isComplete()) {
            this.outstanding = outstanding;
            device.await(advancedWithOutstanding);
        }
        throwIfFailed();
    }

    /**
     * Makes this schedule, which {@linkplain #succeeded ran to its end}, ready to run again from its first round
     * for another call of the same collective with the same arguments, under that call's {@code tag}
     * ({@link ReusableSchedules}). Its steps read the buffers when they run, so they move that call's data.
     */
    public Schedule restart(int tag) {
        if (!succeeded()) {
            throw new IllegalStateException("only a schedule that ran to its end runs again");
        }
        this.tag = tag;
        roundStart = -1;
        nextRound = 0;
        completion.again();
        return this;
    }

    /** Whether the schedule ran to its end without error. */
    public boolean succeeded() {
        return completion.isComplete() && failure == null;
    }

    /** Raises the error that ended the schedule, if any. */
    public void throwIfFailed() {
        if (failure != null) {
            throw failure;
        }
    }

    /** The request that completes when the schedule has run, with the error class of a failure. */
    public DeviceRequest completion() {
        return completion;
    }

    /**
     * Advances the schedule as far as it goes without waiting; true once it is complete (or failed). Never
     * blocks: a thread that finds another advancing returns at once.
     */
    @Override
    public boolean getAsBoolean() {
        if (completion.isComplete()) {
            return true;
        }
        if (!ADVANCING.compareAndSet(this, false, true)) {
            return false;
        }
        try {
            while (roundComplete()) {
                if (nextRound == stepCount) {
                    completion.complete(Ranks.ANY_SOURCE, Ranks.ANY_TAG, 0, ErrorClass.SUCCESS);
                    return true;
                }
                startRound();
            }
            return false;
        } catch (DeviceException e) {
            return fail(e);
        } catch (RuntimeException e) {
            // a bug in a local step must end this collective with an error, not escape from a test() call
            return fail(new DeviceException(ErrorClass.ERR_INTERN, "collective: a local step failed: " + e, e));
        } finally {
            advancing = false;
        }
    }

    private boolean fail(DeviceException e) {
        failure = e;
        // the reason goes with the request, so a nonblocking call's wait names it (sizes, ranks), not only its class
        completion.completeFailed(Ranks.ANY_SOURCE, Ranks.ANY_TAG, e.errorClass(), e.getMessage());
        return true;
    }

    private boolean roundComplete() {
        for (int i = 0; i < transferCount; i++) {
            if (!transfers[i].isComplete()) {
                return false;
            }
        }
        if (roundStart >= 0) {
            for (int i = roundStart; steps[i] != EndOfRound.MARK; i++) {
                if (steps[i] instanceof Until until && !until.condition().getAsBoolean()) {
                    return false;
                }
            }
            int transfer = 0;
            for (int i = roundStart; steps[i] != EndOfRound.MARK; i++) {
                if (!(steps[i] instanceof Local) && !(steps[i] instanceof Until)) {
                    check(transfers[transfer++], steps[i]);
                }
            }
        }
        for (int i = 0; i < transferCount; i++) {
            device.retire(transfers[i]); // read for the last time: the device may reuse it
            transfers[i] = null;
        }
        transferCount = 0;
        return true;
    }

    private static void check(DeviceRequest request, Step step) {
        if (step instanceof Receive receive && request.error() == ErrorClass.ERR_TRUNCATE) {
            throw MpiErrors.error(ErrorClass.ERR_TRUNCATE, "collective: world rank " + receive.worldRank
                    + " sent more than the " + receive.buffer.byteSize() + " bytes of the receive block"
                    + " (do all ranks pass the same counts and types?)");
        }
        if (request.error() != ErrorClass.SUCCESS) {
            throw MpiErrors.error(request.error(), "collective: " + step + " failed" + (request.failure() != null
                    ? ": " + request.failure() : " (do all ranks pass the same counts and types?)"));
        }
        if (step instanceof Receive receive) {
            if (receive.fill == Fill.EXACT && request.byteCount() != receive.buffer.byteSize()) {
                throw MpiErrors.error(ErrorClass.ERR_TRUNCATE, "collective: world rank " + receive.worldRank
                        + " sent " + request.byteCount() + " bytes where " + receive.buffer.byteSize()
                        + " were expected (do all ranks pass the same counts and types?)");
            }
            receive.delivered = request.byteCount();
        }
    }

    /** Starts the round at {@link #nextRound}: its steps in order, each local step run, each transfer started. */
    private void startRound() {
        roundStart = nextRound;
        transferCount = 0;
        int i = roundStart;
        for (; steps[i] != EndOfRound.MARK; i++) {
            switch (steps[i]) {
                case Local l -> l.action().run();
                case Until u -> { } // asked by roundComplete
                case Send s -> transfers[transferCount++] =
                        device.isend(s.data(), s.worldRank(), tag + s.phase(), context, SendMode.STANDARD);
                case Forward f -> transfers[transferCount++] =
                        device.isend(f.source().data(), f.worldRank(), tag + f.phase(), context, SendMode.STANDARD);
                case Receive r -> transfers[transferCount++] =
                        device.irecv(r.buffer, r.worldRank, tag + r.phase, context);
                case EndOfRound e -> throw new AssertionError("a round's mark inside the round");
            }
        }
        nextRound = i + 1;
    }
}
