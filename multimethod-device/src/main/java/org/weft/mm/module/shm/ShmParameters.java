package org.weft.mm.module.shm;

import java.util.List;
import org.weft.adi.param.Parameter;

/** The declared parameters of the {@code shm} module (listed by {@code weftrun --info}). */
public final class ShmParameters {
    /**
     * The job's private directory on this host, made and removed by {@code weftrun} (environment
     * {@code WEFT_JOB_DIR}); unset outside a launched job, which leaves shm out.
     */
    public static final Parameter<String> JOB_DIR = Parameter.string("job_dir", "",
            "directory private to the job on this host, for shared-memory files (set by weftrun)");

    public static final Parameter<Long> RING_SIZE = Parameter.bytes("shm_ring_size", 1L << 20,
            "data bytes of each shared-memory ring (one per sender in each process's inbox); a power of two");

    public static final Parameter<Long> EAGER_LIMIT = Parameter.bytes("shm_eager_limit", 16 * 1024,
            "largest payload sent eagerly with its envelope over shm; larger ones use rendezvous");

    public static final Parameter<Integer> MAX_PER_POLL = Parameter.integer("shm_max_per_poll", 64, "RSRs",
            "most RSRs one shm poll delivers, over all senders, starting from a rotating sender");

    public static final Parameter<String> SINGLE_COPY = Parameter.string("shm_single_copy", "cma",
            "how a rendezvous message's data moves: cma (the receiver copies it out of the sender's memory with"
                    + " process_vm_readv, when both buffers are native memory) or none (fragments through the ring)");

    /** All of the above, in the order {@code weftrun --info} shows them. */
    public static final List<Parameter<?>> ALL = List.of(JOB_DIR, RING_SIZE, EAGER_LIMIT, MAX_PER_POLL, SINGLE_COPY);

    private ShmParameters() {
    }
}
