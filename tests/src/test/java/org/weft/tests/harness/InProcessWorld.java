package org.weft.tests.harness;

import mpi.MPI;
import org.weft.adi.WorldConfig;
import org.weft.core.RuntimeBinding;
import org.weft.launcher.bootstrap.BootstrapServer;

import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * N ranks as N runtime instances in this JVM: a real bootstrap service, real communication modules (TCP over
 * loopback, self), one thread per rank bound to its own runtime. Each rank runs {@code MPI.Init}, the body, and
 * {@code MPI.Finalize}. A rank that throws fails the run naming the rank; a run that does not end in time fails
 * with a thread dump.
 */
public final class InProcessWorld {
    /** The code of one rank. */
    @FunctionalInterface
    public interface RankBody {
        void run(int rank) throws Exception;
    }

    private final int size;
    private final Map<String, String> parameters = new HashMap<>();
    private Duration timeout = Duration.ofSeconds(60);

    private InProcessWorld(int size) {
        this.size = size;
    }

    public static InProcessWorld of(int size) {
        return new InProcessWorld(size);
    }

    /** Sets a Weft parameter for every rank, e.g. {@code methods=tcp}. */
    public InProcessWorld with(String parameter, String value) {
        parameters.put(parameter, value);
        return this;
    }

    public InProcessWorld timeout(Duration timeout) {
        this.timeout = timeout;
        return this;
    }

    /** Runs {@code body} on every rank and returns when all finished; throws the first rank's failure. */
    public void run(RankBody body) throws Exception {
        byte[] secretBytes = new byte[16];
        ThreadLocalRandom.current().nextBytes(secretBytes);
        String secret = HexFormat.of().formatHex(secretBytes);
        String jobId = "inproc-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(size);
        try (BootstrapServer server = BootstrapServer.start(size, secret)) {
            Thread[] ranks = new Thread[size];
            for (int r = 0; r < size; r++) {
                int rank = r;
                WorldConfig config = new WorldConfig(rank, size, jobId, server.address(), secret, parameters);
                ranks[r] = Thread.ofPlatform().daemon().name("rank-" + rank).unstarted(() -> {
                    try {
                        RuntimeBinding.runWithConfig(config, () -> {
                            MPI.Init(new String[0]);
                            body.run(rank);
                            MPI.Finalize();
                            return null;
                        });
                    } catch (Throwable t) {
                        failures.set(rank, t);
                    }
                });
                ranks[r].start();
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            for (Thread t : ranks) {
                t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                if (t.isAlive()) {
                    throw new AssertionError("in-process world of " + size + " did not finish within " + timeout
                            + " (first failure: " + firstFailure(failures) + "); thread dump:\n"
                            + ThreadDumps.ofThisJvm());
                }
            }
        }
        for (int r = 0; r < size; r++) {
            Throwable failure = failures.get(r);
            if (failure != null) {
                throw new AssertionError("rank " + r + " of " + size + " failed: " + failure, failure);
            }
        }
    }

    private static String firstFailure(AtomicReferenceArray<Throwable> failures) {
        for (int r = 0; r < failures.length(); r++) {
            if (failures.get(r) != null) {
                return "rank " + r + ": " + failures.get(r);
            }
        }
        return "none";
    }
}
