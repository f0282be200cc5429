package org.weft.mm.module.shm;

import java.nio.file.Path;
import org.weft.adi.param.Parameters;

/**
 * The values of {@link ShmParameters} for one module instance, read and checked once. {@code waitForBinding}: the
 * first large message read waits for cross-memory attach to be bound ({@code cma-wait}) instead of coming through
 * the ring while a thread binds it ({@code cma}).
 */
record ShmConfig(Path jobDir, long ringSize, long eagerLimit, int maxPerPoll, boolean singleCopy,
                 boolean waitForBinding) {

    /** Throws {@link IllegalArgumentException} with a sentence naming the parameter when a value is unusable. */
    static ShmConfig from(Parameters p) {
        String dir = p.get(ShmParameters.JOB_DIR).trim();
        long ringSize = p.get(ShmParameters.RING_SIZE);
        if (Long.bitCount(ringSize) != 1 || ringSize < RingLayout.MIN_CAPACITY || ringSize > RingLayout.MAX_CAPACITY) {
            throw new IllegalArgumentException("parameter " + ShmParameters.RING_SIZE.name() + ": " + ringSize
                    + " bytes is not a power of two in [" + RingLayout.MIN_CAPACITY + ", " + RingLayout.MAX_CAPACITY
                    + "]");
        }
        long eagerLimit = p.get(ShmParameters.EAGER_LIMIT);
        if (eagerLimit < 0) {
            throw new IllegalArgumentException("parameter " + ShmParameters.EAGER_LIMIT.name() + ": negative");
        }
        int maxPerPoll = p.get(ShmParameters.MAX_PER_POLL);
        if (maxPerPoll <= 0) {
            throw new IllegalArgumentException("parameter " + ShmParameters.MAX_PER_POLL.name()
                    + ": must be positive, not " + maxPerPoll);
        }
        String singleCopy = p.get(ShmParameters.SINGLE_COPY).trim().toLowerCase(java.util.Locale.ROOT);
        if (!singleCopy.equals("cma") && !singleCopy.equals("cma-wait") && !singleCopy.equals("none")) {
            throw new IllegalArgumentException("parameter " + ShmParameters.SINGLE_COPY.name() + ": '" + singleCopy
                    + "' is none of cma, cma-wait, none");
        }
        return new ShmConfig(dir.isEmpty() ? null : Path.of(dir), ringSize, eagerLimit, maxPerPoll,
                !singleCopy.equals("none"), singleCopy.equals("cma-wait"));
    }
}
