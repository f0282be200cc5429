package org.weft.mm.module.nativempi;

import org.weft.adi.param.Parameters;

/** The values of {@link NativeMpiParameters} for one module instance, read and checked once. */
record NativeMpiConfig(String library, long eagerLimit, long maxRsr, int sendSlots, int maxPerPoll,
        long blockingSendLimit, int postedReceives, long bulkMin, boolean collectives) {
    /** Throws {@link IllegalArgumentException} with a sentence naming the parameter when a value is unusable. */
    static NativeMpiConfig from(Parameters p) {
        String library = p.get(NativeMpiParameters.LIBRARY).trim();
        long eagerLimit = p.get(NativeMpiParameters.EAGER_LIMIT);
        if (eagerLimit < 0) {
            throw new IllegalArgumentException("parameter " + NativeMpiParameters.EAGER_LIMIT.name() + ": negative");
        }
        long maxRsr = p.get(NativeMpiParameters.MAX_RSR);
        if (maxRsr < 1024 || maxRsr > Integer.MAX_VALUE - RsrPrefix.LENGTH) {
            throw new IllegalArgumentException("parameter " + NativeMpiParameters.MAX_RSR.name() + ": " + maxRsr
                    + " bytes is outside [1024, " + (Integer.MAX_VALUE - RsrPrefix.LENGTH) + "]");
        }
        int slots = positive(NativeMpiParameters.SEND_SLOTS.name(), p.get(NativeMpiParameters.SEND_SLOTS));
        int perPoll = positive(NativeMpiParameters.MAX_PER_POLL.name(), p.get(NativeMpiParameters.MAX_PER_POLL));
        long blocking = p.get(NativeMpiParameters.BLOCKING_SEND_LIMIT);
        if (blocking < 0) {
            throw new IllegalArgumentException("parameter " + NativeMpiParameters.BLOCKING_SEND_LIMIT.name()
                    + ": negative");
        }
        if (eagerLimit + 1024 > maxRsr) {
            throw new IllegalArgumentException("parameter " + NativeMpiParameters.EAGER_LIMIT.name() + ": an eager"
                    + " message and its header must fit one RSR of " + NativeMpiParameters.MAX_RSR.name() + " ("
                    + maxRsr + " bytes)");
        }
        int posted = positive(NativeMpiParameters.POSTED_RECEIVES.name(), p.get(NativeMpiParameters.POSTED_RECEIVES));
        if (posted * (maxRsr + RsrPrefix.LENGTH + 63) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("parameters " + NativeMpiParameters.POSTED_RECEIVES.name() + " ("
                    + posted + ") times " + NativeMpiParameters.MAX_RSR.name() + " (" + maxRsr + " bytes): the"
                    + " receive slots must fit 2 GiB together");
        }
        long bulkMin = p.get(NativeMpiParameters.BULK_MIN);
        if (bulkMin < 0) {
            throw new IllegalArgumentException("parameter " + NativeMpiParameters.BULK_MIN.name() + ": negative");
        }
        return new NativeMpiConfig(library, eagerLimit, maxRsr, slots, perPoll, blocking, posted, bulkMin,
                p.get(NativeMpiParameters.COLLECTIVES) != 0);
    }

    private static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException("parameter " + name + ": must be positive, not " + value);
        }
        return value;
    }
}
