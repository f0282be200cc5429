package org.weft.adi;

import java.util.Map;

/**
 * What a process knows of its job before it meets the others: its rank, the world size, the job's id and
 * secret, where the launcher's bootstrap service listens, and the parameters the user set.
 *
 * <p>The launcher passes these through the environment ({@link #fromEnvironment}); a process started without
 * the launcher is a world of one ({@link #singleton}), as {@code MPI_Init} gives in MPI.
 *
 * @param bootstrapAddress {@code host:port} of the bootstrap service, or {@code null} for a singleton
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
        return new WorldConfig(Integer.parseInt(env.get(ENV_RANK)), Integer.parseInt(env.get(ENV_SIZE)),
                env.get(ENV_JOB_ID), bootstrap, env.get(ENV_SECRET), Map.of());
    }

    public boolean isSingleton() {
        return bootstrapAddress == null;
    }
}
