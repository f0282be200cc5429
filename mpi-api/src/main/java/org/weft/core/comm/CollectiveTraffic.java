package org.weft.core.comm;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.weft.core.coll.level.TwoLevelCollectives;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.ReusableSchedules;
import org.weft.core.coll.shm.SharedCollectives;
import org.weft.core.coll.site.SiteCollectives;
import org.weft.core.coll.sched.ReusableSchedules.Kind;
import org.weft.core.coll.sched.Schedule;

/**
 * What keeps a communicator's collectives apart and moving: a sequence number per started collective (every
 * rank starts the collectives of a communicator in the same order, so the n-th collective gets the same tag
 * everywhere and two outstanding ones never take each other's messages), and the nonblocking collectives still
 * running, so that waiting for one also advances the others (a rank may wait for them in another order than
 * its peers).
 */
public final class CollectiveTraffic {
    /** Tags of collectives: 23 bits of sequence above 8 bits that an algorithm may use for its phases. */
    private static final int SEQUENCE_MASK = 0x7F_FFFF;
    private static final int PHASE_BITS = 8;

    /** Nonblocking collectives started and not yet seen complete, of every communicator of this process. */
    private static final AtomicInteger OUTSTANDING_ANYWHERE = new AtomicInteger();

    private final AtomicInteger sequence = new AtomicInteger();
    /** The communicator's members as the algorithms see them, made on the first collective call. */
    private volatile Members members;
    private final ConcurrentLinkedQueue<BooleanSupplier> outstanding = new ConcurrentLinkedQueue<>();
    /** Schedules of blocking collectives, kept to run again for the same arguments. */
    private final ReusableSchedules schedules = new ReusableSchedules();
    /** The blocking collectives through shared memory, made on the first blocking collective call. */
    private final OnFirstCall<SharedCollectives> shared = new OnFirstCall<>(SharedCollectives::new,
            SharedCollectives::close);
    /** The blocking collectives by the site's native MPI, made on the first blocking collective call. */
    private final OnFirstCall<SiteCollectives> site = new OnFirstCall<>(SiteCollectives::new, SiteCollectives::close);
    /** The blocking collectives in two levels (sites or hosts, then across), made on the first blocking call. */
    private final OnFirstCall<TwoLevelCollectives> twoLevel = new OnFirstCall<>(TwoLevelCollectives::new,
            TwoLevelCollectives::close);
    /** What a blocking call that ran on one of those paths hands its caller to "run": complete, no steps. */
    private final OnFirstCall<Schedule> done = new OnFirstCall<>(CollectiveTraffic::completed, null);

    /** {@code comm}'s (this traffic's communicator's) collectives through shared memory. */
    public SharedCollectives shared(Communicator comm) {
        return shared.get(comm);
    }

    /** {@code comm}'s (this traffic's communicator's) collectives by its site's native MPI. */
    public SiteCollectives site(Communicator comm) {
        return site.get(comm);
    }

    /** {@code comm}'s (this traffic's communicator's) collectives in two levels. */
    public TwoLevelCollectives twoLevel(Communicator comm) {
        return twoLevel.get(comm);
    }

    /**
     * A completed schedule with no steps, which a blocking collective of {@code comm} (this traffic's communicator)
     * that ran through its segment, its site's MPI or in two levels returns: the facade runs it and finds it done.
     */
    public Schedule done(Communicator comm) {
        return done.get(comm);
    }

    private static Schedule completed(Communicator comm) {
        Schedule done = new Schedule(comm.device(), comm.collectiveContext(), 0);
        done.run();
        return done;
    }

    /**
     * The communicator was freed: its shared segment, if it has one, is unmapped, and its native communicator and its
     * internal communicators of two-level collectives, if it has them, freed.
     */
    public void release() {
        shared.release();
        site.release();
        twoLevel.release();
    }

    /**
     * Advances this communicator's outstanding nonblocking collectives until all are complete, making progress on
     * {@code device} (nothing, allocating nothing, when there are none): before a collective that stops Weft's own
     * progress on this rank while it runs.
     */
    public void finishOutstanding(org.weft.adi.Device device) {
        if (!outstanding.isEmpty()) {
            device.await(() -> {
                advanceAll();
                return outstanding.isEmpty();
            });
        }
    }

    /** The base tag of the next collective; the low 8 bits are free for its phases. */
    public int nextTag() {
        return (sequence.getAndIncrement() & SEQUENCE_MASK) << PHASE_BITS;
    }

    /**
     * The members of {@code group} seen from world rank {@code myWorldRank} — the communicator's, which never change
     * — made once, with the split by site and host the algorithms ask for on every call.
     */
    public Members members(ProcessGroup group, int myWorldRank) {
        Members m = members;
        if (m == null) {
            m = Members.of(group, myWorldRank);
            members = m;
        }
        return m;
    }

    /**
     * The schedule kept from an earlier blocking collective of this kind with these arguments (their order:
     * {@link Kind}), restarted under the next tag (one tag a call, kept or built, so every rank keeps counting
     * alike); {@code null} if none is idle.
     */
    public Schedule kept(Kind kind, Object a, Object b, Object c, Object d, int x, int y, int z) {
        Schedule schedule = schedules.take(kind, a, b, c, d, x, y, z);
        return schedule == null ? null : schedule.restart(nextTag());
    }

    /**
     * Keeps {@code schedule}, just built for a blocking collective with these arguments and about to run, holding
     * {@code held} bytes of user buffers.
     */
    public void keep(Kind kind, Object a, Object b, Object c, Object d, int x, int y, int z, Schedule schedule,
                     long held) {
        schedules.add(kind, a, b, c, d, x, y, z, schedule, held);
    }

    /** A blocking collective ran {@code schedule}: if kept, it may serve the next call (if it succeeded). */
    public void finished(Schedule schedule) {
        schedules.finished(schedule);
    }

    /** Remembers a started nonblocking collective; {@code advance} returns true once it is complete. */
    public void started(BooleanSupplier advance) {
        OUTSTANDING_ANYWHERE.incrementAndGet();
        outstanding.add(advance);
    }

    /**
     * Whether no nonblocking collective of any communicator of this process is outstanding: a peer may wait for the
     * next round of one, which only this process's waits advance (a native collective that holds up this process's
     * progress asks it).
     */
    public static boolean noneOutstandingAnywhere() {
        return OUTSTANDING_ANYWHERE.get() == 0;
    }

    /**
     * Advances every outstanding nonblocking collective once and forgets those that completed. With none (the usual
     * case: a blocking collective's wait calls this on every pass) it makes no iterator: the JIT does not always
     * scalar-replace one in a long wait's loop, and a CI run caught a repeated allreduce allocating 6.4 bytes a call
     * so (24-byte {@code ConcurrentLinkedQueue$Itr}s, found with JFR's allocation samples).
     */
    public void advanceAll() {
        if (outstanding.isEmpty()) {
            return;
        }
        for (Iterator<BooleanSupplier> it = outstanding.iterator(); it.hasNext(); ) {
            if (it.next().getAsBoolean()) {
                it.remove();
                OUTSTANDING_ANYWHERE.decrementAndGet();
            }
        }
    }

    /**
     * One of a communicator's collective paths (or its {@link #done} schedule), made from the communicator by the first
     * call that asks for it and released when the communicator is freed. {@code make} and {@code release} are
     * non-capturing references, so asking allocates nothing; later calls read the field without locking.
     */
    private static final class OnFirstCall<T> {
        private final Function<Communicator, T> make;
        private final Consumer<T> release;
        private volatile T made;

        /** {@code release} may be {@code null}: nothing to free. */
        OnFirstCall(Function<Communicator, T> make, Consumer<T> release) {
            this.make = make;
            this.release = release;
        }

        T get(Communicator comm) {
            T t = made;
            if (t == null) {
                synchronized (this) {
                    t = made;
                    if (t == null) {
                        t = make.apply(comm);
                        made = t;
                    }
                }
            }
            return t;
        }

        void release() {
            T t = made;
            if (t != null && release != null) {
                release.accept(t);
            }
        }
    }
}
