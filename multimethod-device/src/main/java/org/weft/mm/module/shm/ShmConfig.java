package org.weft.mm.module.shm;

import java.nio.file.Path;
import org.weft.adi.param.Parameters;

/** The values of {@link ShmParameters} for one module instance, read and checked once. */
record ShmConfig(Path jobDir, long ringSize, long eagerLimit, int maxPerPoll, boolean singleCopy) {

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
        if (!singleCopy.equals("cma") && !singleCopy.equals("none")) {
            throw new IllegalArgumentException("parameter " + ShmParameters.SINGLE_COPY.name() + ": '" + singleCopy
                    + "' is neither cma nor none");
        }
        return new ShmConfig(dir.isEmpty() ? null : Path.of(dir), ringSize, eagerLimit, maxPerPoll,
                singleCopy.equals("cma"));
    }
}
