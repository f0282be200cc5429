package org.weft.mm;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.weft.adi.DeviceException;
import org.weft.adi.DynamicProcesses;
import org.weft.adi.ErrorClass;
import org.weft.adi.Locality;
import org.weft.adi.bootstrap.Bootstrap;
import org.weft.adi.bootstrap.BootstrapProtocol;
import org.weft.adi.bootstrap.LauncherRequests;
import org.weft.adi.bootstrap.LauncherRequests.SpawnSpec;
import org.weft.adi.bootstrap.RefusedRequestException;
import org.weft.mm.spi.CommModule;

/**
 * The multimethod device's side of a growing world: startpoints to processes of other worlds (a spawn's parents
 * or children, the other side of a port), made from business cards the launcher keeps for every job rank; the
 * methods that reach them, started late where they had not been needed (tcp in a job on one host: its processes
 * reached each other by shared memory); spawns and names, asked of the launcher.
 *
 * <p>Method selection between old and new processes is the usual one over the modules running: shm applies only
 * inside one world (its rings are made for the world's ranks, and a spawned world runs without it), nativempi only
 * inside one native session, so processes of two worlds meet over tcp.
 */
final class WorldGrowth implements DynamicProcesses {
    private final Context context;
    private final Bootstrap bootstrap;
    private final Locality here;
    private final int worldFirstRank;
    private final int parent;
    private final String jobId;
    /** The sites and hosts of the ranks this process knows, by job rank (grown by {@link #reach}). */
    private final AtomicReference<Locality[]> localities;
    /** Modules that did not start with the world because the others reached every rank; started by prepare. */
    private final List<CommModule> notStarted;
    /** Starts a module late: as at init, into the context's running modules; true when it runs. */
    private final ModuleStarter starter;
    private final Consumer<CommModule> poll;
    /** Awaits a request to the launcher while the device progresses ({@link org.weft.adi.Device#awaitResult}). */
    private final Awaiter awaiter;

    /** How this process awaits a blocking call's result: progressing the device meanwhile. */
    @FunctionalInterface
    interface Awaiter {
        <T> T await(CompletableFuture<T> result) throws IOException;
    }

    /** How a module is started after the others (the device's own start-up step). */
    @FunctionalInterface
    interface ModuleStarter {
        boolean start(CommModule module, List<CommModule> running);
    }

    WorldGrowth(Context context, Bootstrap bootstrap, Locality here, int worldFirstRank, int parent, String jobId,
                AtomicReference<Locality[]> localities, List<CommModule> notStarted, ModuleStarter starter,
                Consumer<CommModule> poll, Awaiter awaiter) {
        this.context = context;
        this.bootstrap = bootstrap;
        this.here = here;
        this.worldFirstRank = worldFirstRank;
        this.parent = parent;
        this.jobId = jobId;
        this.localities = localities;
        this.notStarted = new ArrayList<>(notStarted);
        this.starter = starter;
        this.poll = poll;
        this.awaiter = awaiter;
    }

    @Override
    public int worldFirstRank() {
        return worldFirstRank;
    }

    @Override
    public int parent() {
        return parent;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public synchronized void prepare() {
        if (notStarted.isEmpty()) {
            return;
        }
        List<CommModule> running = new ArrayList<>(context.modules());
        for (CommModule module : notStarted) {
            if (starter.start(module, running)) {
                poll.accept(module);
            }
        }
        notStarted.clear();
        context.start(running);
        try {
            awaiter.await(bootstrap.request(LauncherRequests.PUT_CARD,
                    new BusinessCard(here, context.localTable()).encode()));
        } catch (IOException e) {
            throw refused(e, ErrorClass.ERR_INTERN, "cannot give the launcher this process's new business card");
        }
    }

    @Override
    public synchronized void reach(int[] ranks) {
        int[] unknown = Arrays.stream(ranks).filter(r -> !context.knows(r)).distinct().toArray();
        if (unknown.length == 0) {
            return;
        }
        prepare(); // a peer of another world may be reachable only by a method not started yet
        byte[][] cards;
        try {
            cards = awaiter.await(bootstrap.cards(unknown));
        } catch (IOException e) {
            throw refused(e, ErrorClass.ERR_RANK, "cannot learn how to reach job ranks " + Arrays.toString(unknown));
        }
        Locality[] known = localities.get();
        int highest = Arrays.stream(unknown).max().orElseThrow();
        Locality[] grown = Arrays.copyOf(known, Math.max(known.length, highest + 1));
        for (int i = 0; i < unknown.length; i++) {
            BusinessCard card = BusinessCard.decode(cards[i]);
            grown[unknown[i]] = card.locality();
            context.reach(unknown[i], card.table());
        }
        localities.set(grown);
    }

    @Override
    public byte[][] cards(int[] ranks) {
        prepare();
        try {
            return awaiter.await(bootstrap.cards(ranks));
        } catch (IOException e) {
            throw refused(e, ErrorClass.ERR_PORT, "cannot learn the business cards of job ranks "
                    + Arrays.toString(ranks));
        }
    }

    @Override
    public int reserve(int count) {
        try {
            byte[] answer = awaiter.await(bootstrap.request(LauncherRequests.RESERVE, LauncherRequests.ranks(
                    new int[] {count})));
            return BootstrapProtocol.getInt(answer, 0);
        } catch (IOException e) {
            throw refused(e, ErrorClass.ERR_PORT, "the launcher could not name " + count
                    + " processes of another job");
        }
    }

    /**
     * Another job's processes become startpoints under their aliases, reachable by the methods that connect two
     * jobs: tcp alone (shm's rings and a native MPI session are their own job's; their cards' other descriptors
     * are dropped). Their credentials go first, so a HELLO from one of them is understood at once.
     */
    @Override
    public synchronized void adopt(ForeignGroup group) {
        prepare();
        context.foreignPeers().add(group);
        Locality[] known = localities.get();
        int end = group.firstAlias() + group.cards().length;
        Locality[] grown = Arrays.copyOf(known, Math.max(known.length, end));
        for (int i = 0; i < group.cards().length; i++) {
            BusinessCard card = BusinessCard.decode(group.cards()[i]);
            grown[group.firstAlias() + i] = card.locality();
            context.reach(group.firstAlias() + i, card.table().only(BETWEEN_JOBS));
        }
        localities.set(grown);
    }

    /** The methods that connect processes of two jobs. */
    private static final java.util.Set<String> BETWEEN_JOBS = java.util.Set.of("tcp");

    @Override
    public int[] spawn(SpawnSpec spec) {
        byte[] answer;
        try {
            answer = awaiter.await(bootstrap.request(LauncherRequests.SPAWN, LauncherRequests.spawn(spec)));
        } catch (IOException e) {
            throw refused(e, ErrorClass.ERR_SPAWN, "the launcher could not spawn " + spec.count() + " processes");
        }
        int first = BootstrapProtocol.getInt(answer, 0);
        int[] ranks = new int[BootstrapProtocol.getInt(answer, 4)];
        Arrays.setAll(ranks, i -> first + i);
        return ranks;
    }

    @Override
    public void publishName(String service, String port) {
        ask(LauncherRequests.PUBLISH, ErrorClass.ERR_SERVICE, service, port);
    }

    @Override
    public String lookupName(String service) {
        byte[] answer = ask(LauncherRequests.LOOKUP, ErrorClass.ERR_NAME, service);
        try {
            return LauncherRequests.stringsOf(answer, 1)[0];
        } catch (IOException e) {
            throw new DeviceException(ErrorClass.ERR_INTERN, "a garbled answer from the launcher", e);
        }
    }

    @Override
    public void unpublishName(String service, String port) {
        ask(LauncherRequests.UNPUBLISH, ErrorClass.ERR_SERVICE, service, port);
    }

    private byte[] ask(byte op, int errorClass, String... values) {
        try {
            return awaiter.await(bootstrap.request(op, LauncherRequests.strings(values)));
        } catch (IOException e) {
            throw refused(e, errorClass, "the launcher's name service failed");
        }
    }

    /** The launcher's refusal as its error class; any other failure as {@code errorClass}. */
    private static DeviceException refused(IOException e, int errorClass, String what) {
        if (e instanceof RefusedRequestException refusal) {
            return new DeviceException(refusal.errorClass(), refusal.getMessage());
        }
        return new DeviceException(errorClass, what + ": " + e.getMessage(), e);
    }
}
