package org.weft.core.coll.shm;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.sched.Schedule;

/**
 * The nonblocking bcast, gather, scatter, allgather and alltoall through a communicator's segment, as rounds of a
 * schedule that wait for other members' flags ({@link Schedule#until}): the call takes the operation's number and
 * returns, and tests and waits advance it (as {@link SharedSchedules}' reductions). Their steps are the blocking
 * forms' ({@link BlockExchanges}), data of any size: a sender's data that fits a slot goes into it, larger data by
 * messages under the schedule's tag, recorded as {@link CommSegment#BY_MESSAGE}; the sender knows which at the call
 * (its own count), and its readers follow what it recorded when they come to read ({@link Arrivals}), so counts
 * that differ between ranks (short blocks; longer ones are {@code ERR_TRUNCATE}) leave no rank on a path the others
 * did not take. A sender's messages start in the round where its readers receive, never in one that must end first.
 */
final class SharedBlockSchedules {
    private SharedBlockSchedules() {
    }

    /** {@code MPI_Ibcast} of {@code data} (the root's to send; the others' to receive into) from {@code root}. */
    static void bcast(CommSegment seg, Schedule plan, MemorySegment data, int root, int me) {
        long s = SharedSchedules.begin(seg, plan);
        if (me == root) {
            boolean fits = data.byteSize() <= seg.slotBytes();
            plan.local(() -> publishOwn(seg, s, data, 0, data.byteSize(), fits, 2 * s));
            sendToOthers(seg, plan, data, fits, me);
            plan.endRound();
            return;
        }
        Arrivals in = new Arrivals(seg, plan.tag());
        plan.until(() -> seg.reached(root, 2 * s)).endRound();
        plan.local(() -> {
            in.take(s, root, root, 0, data, 0, data.byteSize());
            seg.publish(2 * s);
        }).until(in::arrived).endRound();
        plan.local(() -> BlockExchanges.checkFits(in.longest(), data.byteSize()));
    }

    /**
     * {@code MPI_Igather} to {@code root} of blocks of {@code block} bytes (the root's room for each) into
     * {@code recv}; {@code mine} is this rank's block ({@code null} at the root: in place).
     */
    static void gather(CommSegment seg, Schedule plan, MemorySegment mine, MemorySegment recv, long block, int root,
                       int me) {
        long s = SharedSchedules.begin(seg, plan);
        if (me != root) {
            boolean fits = mine.byteSize() <= seg.slotBytes();
            plan.local(() -> publishOwn(seg, s, mine, 0, mine.byteSize(), fits, 2 * s));
            if (!fits) {
                plan.send(mine, seg.worldRank(root));
            }
            plan.endRound();
            return;
        }
        Arrivals in = new Arrivals(seg, plan.tag());
        plan.local(() -> {
            if (mine != null) {
                in.took(BlockExchanges.copyOwn(mine, 0, mine.byteSize(), recv, me * block, block));
            }
            seg.publish(2 * s - 1);
        }).until(() -> seg.allReached(2 * s - 1)).endRound();
        plan.local(() -> {
            for (int r = 0; r < seg.ranks(); r++) {
                if (r != me) {
                    in.take(s, r, r, 0, recv, r * block, block);
                }
            }
        }).until(in::arrived).endRound();
        finish(seg, plan, s, in, block);
    }

    /**
     * {@code MPI_Iscatter} from {@code root} of blocks of {@code block} bytes ({@code send} at the root); {@code mine}
     * receives this rank's ({@code null} at the root: in place).
     */
    static void scatter(CommSegment seg, Schedule plan, MemorySegment send, long block, MemorySegment mine, int root,
                        int me) {
        long s = SharedSchedules.begin(seg, plan);
        if (me == root) {
            boolean fits = block <= seg.slotBytes();
            plan.local(() -> {
                if (mine != null) {
                    BlockExchanges.copyOwn(send, me * block, block, mine, 0, mine.byteSize());
                }
                for (int r = 0; r < seg.ranks() && fits; r++) {
                    if (r != me) {
                        MemorySegment.copy(send, r * block, seg.slot(s, r), 0, block);
                    }
                }
                seg.setLength(s, fits ? block : CommSegment.BY_MESSAGE);
                seg.publish(2 * s);
            });
            for (int r = 0; r < seg.ranks() && !fits; r++) {
                if (r != me) {
                    plan.send(send.asSlice(r * block, block), seg.worldRank(r));
                }
            }
            plan.endRound();
            plan.local(() -> BlockExchanges.checkFits(mine == null ? 0 : block, mine == null ? 0 : mine.byteSize()));
            return;
        }
        Arrivals in = new Arrivals(seg, plan.tag());
        plan.until(() -> seg.reached(root, 2 * s)).endRound();
        plan.local(() -> {
            in.take(s, root, me, 0, mine, 0, mine.byteSize()); // the root put this rank's block in this rank's slot
            seg.publish(2 * s);
        }).until(in::arrived).endRound();
        plan.local(() -> BlockExchanges.checkFits(in.longest(), mine.byteSize()));
    }

    /**
     * {@code MPI_Iallgather} of blocks of {@code block} bytes into {@code recv}: this rank's is {@code bytes} of
     * {@code from} at {@code offset} (in place: its block of {@code recv} itself).
     */
    static void allGather(CommSegment seg, Schedule plan, MemorySegment from, long offset, long bytes,
                          MemorySegment recv, long block, boolean inPlace, int me) {
        long s = SharedSchedules.begin(seg, plan);
        boolean fits = bytes <= seg.slotBytes();
        Arrivals in = new Arrivals(seg, plan.tag());
        plan.local(() -> publishOwn(seg, s, from, offset, bytes, fits, 2 * s - 1))
                .until(() -> seg.allReached(2 * s - 1)).endRound();
        sendToOthers(seg, plan, fits ? null : from.asSlice(offset, bytes), fits, me);
        plan.local(() -> {
            if (!inPlace) {
                in.took(BlockExchanges.copyOwn(from, 0, bytes, recv, me * block, block));
            }
            for (int r = 0; r < seg.ranks(); r++) {
                if (r != me) {
                    in.take(s, r, r, 0, recv, r * block, block);
                }
            }
        }).until(in::arrived).endRound();
        finish(seg, plan, s, in, block);
    }

    /** {@code MPI_Ialltoall} of blocks of {@code sendBlock} bytes into blocks of {@code recvBlock}. */
    static void allToAll(CommSegment seg, Schedule plan, MemorySegment send, long sendBlock, MemorySegment recv,
                         long recvBlock, int me) {
        long s = SharedSchedules.begin(seg, plan);
        int n = seg.ranks();
        boolean fits = n * sendBlock <= seg.slotBytes();
        Arrivals in = new Arrivals(seg, plan.tag());
        plan.local(() -> {
            if (fits) {
                MemorySegment.copy(send, 0, seg.slot(s, me), 0, n * sendBlock);
            }
            seg.setLength(s, fits ? sendBlock : CommSegment.BY_MESSAGE); // each block's length, not all of theirs
            seg.publish(2 * s - 1);
        }).until(() -> seg.allReached(2 * s - 1)).endRound();
        for (int r = 0; r < n && !fits; r++) {
            if (r != me) {
                plan.send(send.asSlice(r * sendBlock, sendBlock), seg.worldRank(r));
            }
        }
        plan.local(() -> {
            in.took(BlockExchanges.copyOwn(send, me * sendBlock, sendBlock, recv, me * recvBlock, recvBlock));
            for (int r = 0; r < n; r++) {
                if (r != me) {
                    in.take(s, r, r, me, recv, r * recvBlock, recvBlock);
                }
            }
        }).until(in::arrived).endRound();
        finish(seg, plan, s, in, recvBlock);
    }

    /**
     * Puts {@code bytes} of {@code data} at {@code offset} into this rank's slot for operation {@code s} when they
     * {@code fit} (else records that they go by message) and publishes {@code phase}.
     */
    private static void publishOwn(CommSegment seg, long s, MemorySegment data, long offset, long bytes, boolean fit,
                                   long phase) {
        if (fit) {
            MemorySegment.copy(data, offset, seg.slot(s, seg.rank()), 0, bytes);
        }
        seg.setLength(s, fit ? bytes : CommSegment.BY_MESSAGE);
        seg.publish(phase);
    }

    /** Appends the sends of {@code data} to every other member, unless it {@code fits} the slot. */
    private static void sendToOthers(CommSegment seg, Schedule plan, MemorySegment data, boolean fits, int me) {
        for (int r = 0; r < seg.ranks() && !fits; r++) {
            if (r != me) {
                plan.send(data, seg.worldRank(r));
            }
        }
    }

    /** The last round: this rank is done with operation {@code s}; a block longer than its room is truncated. */
    private static void finish(CommSegment seg, Schedule plan, long s, Arrivals in, long room) {
        plan.local(() -> {
            seg.publish(2 * s);
            BlockExchanges.checkFits(in.longest(), room);
        });
    }
}
