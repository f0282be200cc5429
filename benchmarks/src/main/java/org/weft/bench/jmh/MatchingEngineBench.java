package org.weft.bench.jmh;

import java.lang.foreign.MemorySegment;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.weft.mm.match.MatchingEngine;
import org.weft.mm.match.RecvRequest;
import org.weft.mm.match.UnexpectedMessage;
import org.weft.mm.progress.Waiters;

/**
 * The matching engine with {@code queued} entries that do not match ahead of the one that does: a receive posted
 * then matched by an arriving envelope ({@link #postThenArrive}), and a message queued as unexpected then taken by
 * a receive ({@link #arriveThenPost}). Both reuse one request/message, so they measure the scan, not allocation.
 */
public class MatchingEngineBench extends NanosecondBenchmark {
    private static final int CONTEXT = 0;
    private static final int SOURCE = 1;
    private static final int TAG = 7;

    /** Entries ahead of the matching one (other tags), which every match scans past. */
    @Param({"0", "16", "256"})
    public int queued;

    private MatchingEngine engine;
    private RecvRequest receive;
    private UnexpectedMessage message;

    @Setup
    public void setUp() {
        engine = new MatchingEngine();
        Waiters waiters = new Waiters();
        for (int i = 0; i < queued; i++) {
            engine.addPosted(new RecvRequest(waiters).prepare(MemorySegment.NULL, SOURCE, 1000 + i, CONTEXT));
            engine.addUnexpected(UnexpectedMessage.eager(SOURCE, 1000 + i, CONTEXT, new byte[0], 0, false));
        }
        receive = new RecvRequest(waiters).prepare(MemorySegment.NULL, SOURCE, TAG, CONTEXT);
        message = UnexpectedMessage.eager(SOURCE, TAG, CONTEXT, new byte[0], 0, false);
    }

    @Benchmark
    public RecvRequest postThenArrive() {
        engine.addPosted(receive);
        return engine.takePosted(SOURCE, TAG, CONTEXT);
    }

    @Benchmark
    public UnexpectedMessage arriveThenPost() {
        engine.addUnexpected(message);
        return engine.takeUnexpected(SOURCE, TAG, CONTEXT);
    }
}
