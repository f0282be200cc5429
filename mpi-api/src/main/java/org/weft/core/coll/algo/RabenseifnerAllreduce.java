package org.weft.core.coll.algo;

import java.lang.foreign.MemorySegment;

import org.weft.core.coll.op.Combiner;
import org.weft.core.coll.sched.Blocks;
import org.weft.core.coll.sched.Members;
import org.weft.core.coll.sched.Schedule;

/**
 * Rabenseifner's allreduce for long vectors and commutative operations (MPICH's long-message algorithm): a
 * reduce-scatter by recursive halving (each step exchanges half of what is left with the partner and combines it)
 * followed by an allgather by recursive doubling, so each member sends about 2n bytes whatever p, instead of
 * n log p. Members beyond the largest power of two p' fold into their neighbours first, as in
 * {@link RecursiveDoublingAllreduce}. Needs {@code count ≥ p'}.
 */
public final class RabenseifnerAllreduce {
    private RabenseifnerAllreduce() {
    }

    /** True when the vector is long enough to split among the members. */
    public static boolean fits(int count, int size) {
        return count >= Integer.highestOneBit(size);
    }

    /** Combines every member's {@code send} into every member's {@code recv} ({@code recv} may be {@code send}). */
    public static void append(Schedule s, Members m, MemorySegment send, MemorySegment recv, int count,
                              int itemBytes, Combiner op) {
        if (!m.includesMe()) {
            return;
        }
        long bytes = send.byteSize();
        if (m.size() == 1) {
            s.local(() -> MemorySegment.copy(send, 0, recv, 0, bytes));
            s.endRound();
            return;
        }
        MemorySegment incoming = Blocks.scratch(bytes);
        PowerOfTwoFold fold = PowerOfTwoFold.foldIn(s, m, send, recv, incoming, count, op);
        if (fold.newRank() >= 0) {
            int pof2 = fold.pof2();
            int[] counts = new int[pof2];
            int[] displs = new int[pof2 + 1];
            for (int i = 0; i < pof2; i++) {
                counts[i] = count / pof2 + (i < count % pof2 ? 1 : 0);
                displs[i + 1] = displs[i] + counts[i];
            }
            new Exchange(s, fold, fold.folded() ? recv : send, recv, incoming, itemBytes, displs, op).run(pof2);
        }
        fold.foldOut(s, recv);
    }

    /**
     * The two phases among the p' members, with block ranges computed as the schedule is built. The first halving
     * step sends from {@code held} (the user's {@code send}, or {@code recv} after a fold) and combines straight
     * into {@code recv}; the later steps work in {@code recv}, the only place the kept half is then.
     */
    private record Exchange(Schedule s, PowerOfTwoFold fold, MemorySegment held, MemorySegment recv,
                            MemorySegment incoming, int itemBytes, int[] displs, Combiner op) {
        void run(int pof2) {
            int newRank = fold.newRank();
            int sendIdx = 0;
            int recvIdx = 0;
            int lastIdx = pof2;
            int mask = 1;
            for (; mask < pof2; mask <<= 1) {
                int partnerNew = newRank ^ mask;
                int half = pof2 / (mask * 2);
                int sendEnd;
                int recvEnd;
                if (newRank < partnerNew) {
                    sendIdx = recvIdx + half;
                    sendEnd = lastIdx;
                    recvEnd = sendIdx;
                } else {
                    recvIdx = sendIdx + half;
                    sendEnd = recvIdx;
                    recvEnd = lastIdx;
                }
                MemorySegment from = mask == 1 ? held : recv;
                exchange(partnerNew, from, sendIdx, sendEnd, recvIdx, recvEnd, incoming);
                MemorySegment in = range(incoming, recvIdx, recvEnd);
                MemorySegment inout = range(from, recvIdx, recvEnd);
                MemorySegment out = range(recv, recvIdx, recvEnd);
                int items = displs[recvEnd] - displs[recvIdx];
                s.local(() -> op.combineInto(in, inout, out, items));
                sendIdx = recvIdx;
                lastIdx = recvEnd;
            }
            // now this member holds the reduced blocks [sendIdx, lastIdx); gather them back in reverse order
            for (mask >>= 1; mask > 0; mask >>= 1) {
                int partnerNew = newRank ^ mask;
                int half = pof2 / (mask * 2);
                int blocks = lastIdx - sendIdx;
                if (newRank < partnerNew) {
                    exchange(partnerNew, recv, sendIdx, lastIdx, lastIdx, lastIdx + blocks, recv);
                    lastIdx += blocks;
                } else {
                    exchange(partnerNew, recv, sendIdx, lastIdx, sendIdx - blocks, sendIdx, recv);
                    sendIdx -= blocks;
                }
                assert blocks == half;
            }
            s.endRound();
        }

        private void exchange(int partnerNew, MemorySegment from, int sendIdx, int sendEnd, int recvIdx, int recvEnd,
                              MemorySegment into) {
            int partner = fold.world(partnerNew);
            s.send(range(from, sendIdx, sendEnd), partner);
            s.receive(range(into, recvIdx, recvEnd), partner);
            s.endRound();
        }

        private MemorySegment range(MemorySegment base, int from, int to) {
            return base.asSlice((long) displs[from] * itemBytes, (long) (displs[to] - displs[from]) * itemBytes);
        }
    }
}
