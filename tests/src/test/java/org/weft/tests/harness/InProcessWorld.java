package org.weft.tests.harness;

import mpi.MPI;
import org.weft.adi.Device;
import org.weft.adi.DeviceProvider;
import org.weft.adi.WorldConfig;
import org.weft.adi.bootstrap.SocketBootstrap;
import org.weft.core.RuntimeBinding;
import org.weft.launcher.bootstrap.BootstrapServer;
import org.weft.mm.MultimethodDevice;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import java.time.Duration;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

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

    /** How long the other ranks may take to finish once one rank failed. */
    private static final Duration FAILURE_GRACE = Duration.ofSeconds(5);

    /**
     * The multimethod device, joined to the in-process bootstrap service with a job-end action that does not halt
     * this JVM (a real rank halts; here the test must fail instead, with the reason).
     */
    private static Device openMultimethod(WorldConfig config) {
        try {
            return MultimethodDevice.open(config, SocketBootstrap.connect(config,
                    reason -> System.err.println("in-process rank " + config.rank() + ": " + reason)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The device of one rank, wrapped by the test if it asked (e.g. to count messages). */
    private DeviceProvider provider() {
        return new DeviceProvider() {
            @Override
            public String name() {
                return "multimethod (in-process test world)";
            }

            @Override
            public Device open(WorldConfig config) {
                return deviceWrapper.apply(config.rank(), openMultimethod(config));
            }
        };
    }

    private final int size;
    private final Map<String, String> parameters = new HashMap<>();
    private final Map<String, IntFunction<String>> perRankParameters = new HashMap<>();
    private BiFunction<Integer, Device, Device> deviceWrapper = (rank, device) -> device;
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

    /** Sets a Weft parameter per rank, e.g. {@code perRank("site", r -> r < 4 ? "a" : "b")}. */
    public InProcessWorld perRank(String parameter, IntFunction<String> valueOfRank) {
        perRankParameters.put(parameter, valueOfRank);
        return this;
    }

    /**
     * Wraps each rank's real device ({@code wrapper.apply(rank, device)}), e.g. to count the messages a test is
     * about; the wrapper must pass every call on to the device, which keeps the transport real.
     */
    public InProcessWorld wrapDevice(BiFunction<Integer, Device, Device> wrapper) {
        this.deviceWrapper = wrapper;
        return this;
    }

    /** The value of a parameter set with {@link #with}, or {@code null}. */
    public String parameter(String name) {
        return parameters.get(name);
    }

    @Override
    public String toString() {
        return size + " ranks" + (parameters.isEmpty() ? "" : " " + parameters);
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
        Path jobDir = Files.createTempDirectory(Files.isDirectory(Path.of("/dev/shm")) ? Path.of("/dev/shm")
                : Path.of(System.getProperty("java.io.tmpdir")), "weft-test-");
        Map<String, String> worldParameters = new HashMap<>(parameters);
        worldParameters.putIfAbsent("job_dir", jobDir.toString()); // as weftrun does: shm between the ranks
        try (BootstrapServer server = BootstrapServer.start(size, secret)) {
            Thread[] ranks = new Thread[size];
            DeviceProvider provider = provider();
            for (int r = 0; r < size; r++) {
                int rank = r;
                Map<String, String> rankParameters = new HashMap<>(worldParameters);
                perRankParameters.forEach((name, value) -> rankParameters.put(name, value.apply(rank)));
                WorldConfig config = new WorldConfig(rank, size, jobId, server.address(), secret, rankParameters);
                ranks[r] = Thread.ofPlatform().daemon().name("rank-" + rank).unstarted(() -> {
                    try {
                        RuntimeBinding.runWith(provider, config, () -> {
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
            awaitRanks(ranks, failures);
        } finally {
            deleteTree(jobDir);
        }
        for (int r = 0; r < size; r++) {
            Throwable failure = failures.get(r);
            if (failure != null) {
                throw new AssertionError("rank " + r + " of " + size + " failed: " + failure, failure);
            }
        }
    }

    /**
     * Waits for every rank thread. A run that outlives its timeout fails with a thread dump; so does one where a
     * rank failed and the others did not finish within a short grace (they may wait for the failed rank forever).
     */
    private void awaitRanks(Thread[] ranks, AtomicReferenceArray<Throwable> failures) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long failedAt = 0;
        for (Thread t : ranks) {
            while (t.isAlive()) {
                t.join(100);
                long now = System.nanoTime();
                if (failedAt == 0 && !"none".equals(firstFailure(failures))) {
                    failedAt = now;
                }
                boolean graceOver = failedAt != 0 && now - failedAt > FAILURE_GRACE.toNanos();
                if (t.isAlive() && (now > deadline || graceOver)) {
                    throw new AssertionError("in-process world of " + size + " did not finish "
                            + (graceOver ? "after a rank failed" : "within " + timeout) + " (first failure: "
                            + firstFailure(failures) + "); thread dump:\n" + ThreadDumps.ofThisJvm(),
                            firstCause(failures));
                }
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static Throwable firstCause(AtomicReferenceArray<Throwable> failures) {
        for (int r = 0; r < failures.length(); r++) {
            if (failures.get(r) != null) {
                return failures.get(r);
            }
        }
        return null;
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
