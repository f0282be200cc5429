package org.weft.adi;

import java.util.Map;
import org.weft.adi.net.HostAddresses;

/**
 * What a process knows of its job before it meets the others: its rank, the world size, the job's id and
 * secret, where the launcher's bootstrap service listens, and the parameters the user set.
 *
 * <p>The launcher passes these through the environment ({@link #fromEnvironment}); a process started without
 * the launcher is a world of one ({@link #singleton}), as {@code MPI_Init} gives in MPI.
 *
 * @param bootstrapAddress {@code host:port} of the bootstrap service (several, comma-separated, when the launcher
 *                         runs on another host), or {@code null} for a singleton
 * @param secret the per-job secret every connection must prove before a handler runs (hex string)
 * @param parameters declared parameters set by the user, by name (see {@code org.weft.adi.param})
 */
public record WorldConfig(int rank, int size, String jobId, String bootstrapAddress, String secret,
                          Map<String, String> parameters) {
    public static final String ENV_RANK = "WEFT_RANK";
    public static final String ENV_SIZE = "WEFT_SIZE";
    public static final String ENV_JOB_ID = "WEFT_JOB_ID";
    public static final String ENV_BOOTSTRAP = "WEFT_BOOTSTRAP";
    public static final String ENV_SECRET = "WEFT_SECRET";
    /**
     * Set instead of {@link #ENV_RANK} for the ranks of a site started by a native {@code mpirun}: the global rank
     * of the site's first rank, to which each process adds its rank in the {@code mpirun}.
     */
    public static final String ENV_RANK_BASE = "WEFT_RANK_BASE";
    /** Where native launchers put a process's rank, in the order they are looked at (Open MPI, PMI, PMIx). */
    public static final java.util.List<String> NATIVE_RANK_VARIABLES =
            java.util.List.of("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK");

    public WorldConfig {
        parameters = Map.copyOf(parameters);
    }

    /** A world of one process, for programs started without {@code weftrun}. */
    public static WorldConfig singleton() {
        return new WorldConfig(0, 1, "singleton-" + ProcessHandle.current().pid(), null,
                Long.toHexString(System.nanoTime()), Map.of());
    }

    /** The configuration the launcher put in the environment, or a singleton when there is none. */
    public static WorldConfig fromEnvironment() {
        Map<String, String> env = System.getenv();
        String bootstrap = env.get(ENV_BOOTSTRAP);
        if (bootstrap == null) {
            return singleton();
        }
        return new WorldConfig(rankFrom(env), Integer.parseInt(env.get(ENV_SIZE)),
                env.get(ENV_JOB_ID), bootstrap, env.get(ENV_SECRET), Map.of());
    }

    /**
     * This process's global rank: {@link #ENV_RANK} when Weft started it; else {@link #ENV_RANK_BASE} plus the
     * rank its native launcher gave it (the first of {@link #NATIVE_RANK_VARIABLES} that is set).
     */
    static int rankFrom(Map<String, String> env) {
        String rank = env.get(ENV_RANK);
        if (rank != null) {
            return Integer.parseInt(rank);
        }
        String base = env.get(ENV_RANK_BASE);
        if (base == null) {
            throw new IllegalStateException("the launcher set neither " + ENV_RANK + " nor " + ENV_RANK_BASE);
        }
        for (String variable : NATIVE_RANK_VARIABLES) {
            String nativeRank = env.get(variable);
            if (nativeRank != null) {
                return Integer.parseInt(base) + Integer.parseInt(nativeRank);
            }
        }
        throw new IllegalStateException(ENV_RANK_BASE + " is set but no native launcher gave this process a rank ("
                + String.join(", ", NATIVE_RANK_VARIABLES) + " are all unset)");
    }

    public boolean isSingleton() {
        return bootstrapAddress == null;
    }

    /**
     * Whether the whole job runs on this host: a singleton, or a launcher reached over loopback (the launcher lists
     * its other addresses instead when some rank runs elsewhere).
     */
    public boolean isOneHost() {
        if (bootstrapAddress == null) {
            return true;
        }
        for (String address : bootstrapAddress.split(",")) {
            if (!HostAddresses.isLoopback(HostAddresses.hostOf(address))) {
                return false;
            }
        }
        return true;
    }
}
