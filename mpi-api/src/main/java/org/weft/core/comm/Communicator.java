package org.weft.core.comm;

import org.weft.adi.Device;
import org.weft.adi.ErrorClass;
import org.weft.adi.Ranks;
import java.util.Map;

import org.weft.core.MpiRuntime;
import org.weft.core.attr.AttributeTable;
import org.weft.core.error.ErrorMode;
import org.weft.core.error.MpiErrors;
import org.weft.core.topo.Topology;

/**
 * A communicator of the core layer: a group of processes, the pair of context ids that separates its traffic
 * (point-to-point in {@link #context()}, collectives in {@link #collectiveContext()}), its error handler and its
 * name, its cached attributes and info hints. Ranks given to and returned from the facade are communicator
 * ranks; the device sees world ranks. New communicators are made by {@link Intracomms} and {@link Intercomms};
 * freeing one returns its context ids to the process's {@link ContextIds}.
 *
 * <p>Thread-safe: the group and contexts are immutable, the error mode, name and info are volatile.
 */
public final class Communicator {
    private final MpiRuntime runtime;
    private final ProcessGroup group;
    private final int context;
    private final int rank;
    private volatile ErrorMode errorMode;
    private volatile String name;
    private volatile boolean freed;
    private final boolean predefined;
    private final Topology topology;
    private final ProcessGroup remoteGroup;
    private final CollectiveTraffic collectives = new CollectiveTraffic();
    private volatile AttributeTable attributes = new AttributeTable();
    private volatile Map<String, String> info = Map.of();
    /** An intercommunicator's own intracommunicator over its local group (for creation steps), else null. */
    private Communicator localCommunicator;

    public Communicator(MpiRuntime runtime, ProcessGroup group, int context, String name, boolean predefined) {
        this(runtime, group, null, context, name, predefined, null);
    }

    /**
     * A communicator with a remote group (an intercommunicator; {@code null} for an intracommunicator) and a virtual
     * topology ({@code null} for none). Ranks given to point-to-point calls of an intercommunicator name members of
     * the remote group.
     */
    public Communicator(MpiRuntime runtime, ProcessGroup group, ProcessGroup remoteGroup, int context, String name,
                        boolean predefined, Topology topology) {
        this.runtime = runtime;
        this.remoteGroup = remoteGroup;
        this.topology = topology;
        this.group = group;
        this.context = context;
        this.rank = group.rankOf(runtime.device().rank());
        this.name = name;
        this.predefined = predefined;
        this.errorMode = ErrorMode.FATAL;
    }

    public MpiRuntime runtime() {
        return runtime;
    }

    public Device device() {
        return runtime.device();
    }

    public ProcessGroup group() {
        return group;
    }

    /** True for an intercommunicator. */
    public boolean isInter() {
        return remoteGroup != null;
    }

    /** The remote group of an intercommunicator, {@code null} for an intracommunicator. */
    public ProcessGroup remoteGroup() {
        return remoteGroup;
    }

    /** The group whose ranks point-to-point calls name: the remote group of an intercommunicator, else the group. */
    public ProcessGroup peerGroup() {
        return remoteGroup != null ? remoteGroup : group;
    }

    /** This process's rank in the communicator (in its local group). */
    public int rank() {
        return rank;
    }

    public int size() {
        return group.size();
    }

    /** Context id of point-to-point traffic. */
    public int context() {
        return context;
    }

    /** Context id of collective traffic, so that collectives never match user messages. */
    public int collectiveContext() {
        return context + 1;
    }

    /**
     * World rank of communicator rank {@code rank} (of the peer group); {@code PROC_NULL} and {@code ANY_SOURCE} pass
     * through.
     */
    public int toWorld(int rank) {
        return rank < 0 ? rank : peerGroup().worldRank(rank);
    }

    /** Communicator rank (in the peer group) of a world rank seen in a status; negative special ranks pass through. */
    public int fromWorld(int worldRank) {
        return worldRank < 0 ? worldRank : peerGroup().rankOf(worldRank);
    }

    /** Tags and outstanding nonblocking operations of this communicator's collectives. */
    public CollectiveTraffic collectives() {
        return collectives;
    }

    /** The virtual topology, or {@code null} when the communicator has none. */
    public Topology topology() {
        return topology;
    }

    public ErrorMode errorMode() {
        return errorMode;
    }

    public void setErrorMode(ErrorMode mode) {
        this.errorMode = mode;
    }

    public String name() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public boolean isPredefined() {
        return predefined;
    }

    public boolean isFreed() {
        return freed;
    }

    /**
     * {@code MPI_Comm_free}: predefined communicators cannot be freed ({@code ERR_COMM}, still usable). Its
     * outstanding nonblocking collectives are completed first (their requests keep the results). The context ids go
     * back to this process's pool; the next agreement sees them free once every member freed.
     */
    public synchronized void free() {
        if (predefined) {
            throw MpiErrors.error(ErrorClass.ERR_COMM, "cannot free the predefined communicator " + name);
        }
        checkUsable();
        // MPI_Comm_free lets pending operations complete normally; the outstanding nonblocking collectives read the
        // shared segment and native communicator that release() takes away (every member started them before)
        collectives.finishOutstanding(runtime.device());
        freed = true;
        if (!info.isEmpty()) { // the context ids go to a later communicator, which must not inherit these hints
            hintDevice(Map.of());
        }
        runtime.contextIds().release(context);
        collectives.release();
        if (localCommunicator != null) {
            localCommunicator.free();
        }
    }

    /** The attributes cached on this communicator. */
    public AttributeTable attributes() {
        return attributes;
    }

    /** The info hints set on this communicator ({@code MPI_Comm_get_info}), an immutable map. */
    public Map<String, String> info() {
        return info;
    }

    /**
     * {@code MPI_Comm_set_info}: keeps a copy of {@code hints} and hands them to the device, which acts on those it
     * knows (e.g. {@code weft_streams} for messages over a wide-area path).
     */
    public void setInfo(Map<String, String> hints) {
        this.info = Map.copyOf(hints);
        hintDevice(info);
    }

    /**
     * Hands {@code hints} to the device for both contexts: a communicator's collectives are its messages too (an
     * allgather's blocks across a wide-area path take its {@code weft_streams}).
     */
    private void hintDevice(Map<String, String> hints) {
        runtime.device().hint(context, hints);
        runtime.device().hint(collectiveContext(), hints);
    }

    /**
     * What a new communicator takes from its parent: the error handler always (MPI 4.1 §7.4), and for a
     * duplicate also the attributes (copied) and the info hints.
     */
    void inheritFrom(Communicator parent, boolean duplicate) {
        this.errorMode = parent.errorMode;
        if (duplicate) {
            this.attributes = parent.attributes.copyForDup();
            this.info = parent.info;
            if (!info.isEmpty()) {
                hintDevice(info);
            }
        }
    }

    /** An intercommunicator's intracommunicator over its local group; {@code null} for an intracommunicator. */
    Communicator localCommunicator() {
        return localCommunicator;
    }

    void setLocalCommunicator(Communicator local) {
        this.localCommunicator = local;
    }

    /**
     * {@code MPI_Comm_compare}: an intercommunicator compares its local and its remote groups, and is
     * {@code UNEQUAL} to any intracommunicator.
     */
    public int compare(Communicator other) {
        if (this == other) {
            return ProcessGroup.IDENT;
        }
        if (isInter() != other.isInter()) {
            return ProcessGroup.UNEQUAL;
        }
        int groups = group.compare(other.group);
        if (isInter()) {
            // the weaker of the two groups' results (IDENT < SIMILAR < UNEQUAL)
            groups = Math.max(groups, remoteGroup.compare(other.remoteGroup));
        }
        return groups == ProcessGroup.IDENT ? ProcessGroup.CONGRUENT : groups;
    }

    /** Fails with {@code ERR_COMM} if this communicator was freed. */
    public Communicator checkUsable() {
        if (freed) {
            throw MpiErrors.error(ErrorClass.ERR_COMM, "the communicator has been freed");
        }
        return this;
    }

    /** True for {@code MPI_PROC_NULL}; the call then completes at once. */
    public static boolean isProcNull(int rank) {
        return rank == Ranks.PROC_NULL;
    }

    @Override
    public String toString() {
        return name.isEmpty() ? "communicator " + context : name;
    }
}
