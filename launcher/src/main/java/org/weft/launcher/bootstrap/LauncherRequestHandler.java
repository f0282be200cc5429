package org.weft.launcher.bootstrap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.weft.adi.ErrorClass;
import org.weft.adi.bootstrap.BootstrapProtocol;
import org.weft.adi.bootstrap.LauncherRequests;
import org.weft.adi.bootstrap.LauncherRequests.SpawnSpec;
import org.weft.adi.bootstrap.RefusedRequestException;

/**
 * Serves the {@link LauncherRequests} of registered ranks, each on a virtual thread of its own (a spawn waits for
 * its processes to meet): cards of other worlds, a card put late, spawns and the job's names.
 */
final class LauncherRequestHandler {
    /** How long a spawn waits for its processes' descriptor exchange (JVM start, MPI_Init) before ERR_SPAWN. */
    static final Duration SPAWN_LIMIT = Duration.ofSeconds(120);
    /** How long a CARDS request waits for a rank of a world still starting. */
    static final Duration CARDS_LIMIT = Duration.ofSeconds(120);

    private final Worlds worlds;
    private final CardRegistry cards;
    private final NameService names = new NameService();
    private volatile Spawner spawner = Spawner.NONE;

    LauncherRequestHandler(Worlds worlds, CardRegistry cards) {
        this.worlds = worlds;
        this.cards = cards;
    }

    /** Shares the job's names with the other jobs given {@code directory} ({@link NameService}). */
    void shareNamesIn(java.nio.file.Path directory) {
        names.shareIn(directory);
    }

    void spawner(Spawner spawner) {
        this.spawner = spawner;
    }

    /** Answers request {@code id} ({@code op}, {@code body}) of {@code rank} through {@code connection}. */
    void handle(int rank, int id, byte op, byte[] body, RankConnection connection) {
        Thread.ofVirtual().name("weft-bootstrap-request").start(() -> {
            int status = 0;
            byte[] answer;
            try {
                answer = answer(rank, op, body);
            } catch (RefusedRequestException e) {
                status = e.errorClass();
                answer = e.getMessage().getBytes(StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                status = ErrorClass.ERR_INTERN;
                answer = ("the launcher could not read the request: " + e).getBytes(StandardCharsets.UTF_8);
            } catch (InterruptedException e) {
                return; // the service is closing
            }
            connection.sendQuietly(BootstrapProtocol.RESPONSE, LauncherRequests.framed(id, status, false, answer));
        });
    }

    private byte[] answer(int rank, byte op, byte[] body) throws IOException, InterruptedException {
        return switch (op) {
            case LauncherRequests.CARDS -> BootstrapProtocol.gathered(cards.await(LauncherRequests.ranksOf(body),
                    CARDS_LIMIT, ErrorClass.ERR_RANK));
            case LauncherRequests.PUT_CARD -> {
                cards.put(rank, body);
                yield new byte[0];
            }
            case LauncherRequests.SPAWN -> spawn(LauncherRequests.spawnOf(body));
            case LauncherRequests.PUBLISH -> {
                String[] nameAndPort = LauncherRequests.stringsOf(body, 2);
                names.publish(nameAndPort[0], nameAndPort[1]);
                yield new byte[0];
            }
            case LauncherRequests.LOOKUP -> LauncherRequests.strings(
                    names.lookup(LauncherRequests.stringsOf(body, 1)[0]));
            case LauncherRequests.UNPUBLISH -> {
                String[] nameAndPort = LauncherRequests.stringsOf(body, 2);
                names.unpublish(nameAndPort[0], nameAndPort[1]);
                yield new byte[0];
            }
            case LauncherRequests.RESERVE -> reserve(LauncherRequests.ranksOf(body));
            default -> throw new RefusedRequestException(ErrorClass.ERR_INTERN, "unknown request " + op);
        };
    }

    /** A new world for the spawn's processes, started by the launcher; answers when they all met. */
    private byte[] spawn(SpawnSpec spec) throws RefusedRequestException, InterruptedException {
        int count = spec.count();
        if (count < 1) {
            throw new RefusedRequestException(ErrorClass.ERR_SPAWN, "a spawn of " + count + " processes");
        }
        Worlds.World world = worlds.add(count);
        try {
            spawner.start(spec, world.first());
        } catch (RefusedRequestException e) {
            cards.fail(world.first(), count, e.getMessage());
            throw e;
        }
        int[] ranks = new int[count];
        java.util.Arrays.setAll(ranks, i -> world.first() + i);
        cards.await(ranks, SPAWN_LIMIT, ErrorClass.ERR_SPAWN);
        byte[] answer = new byte[8];
        BootstrapProtocol.putInt(answer, 0, world.first());
        BootstrapProtocol.putInt(answer, 4, count);
        return answer;
    }

    /**
     * Job ranks for the processes of another job (a port's other side): a world no process of this job joins, so
     * that no spawn takes its ranks; answers the first.
     */
    private byte[] reserve(int[] count) throws RefusedRequestException {
        if (count.length != 1 || count[0] < 1) {
            throw new RefusedRequestException(ErrorClass.ERR_PORT, "a reservation of " + java.util.Arrays.toString(
                    count) + " job ranks");
        }
        byte[] answer = new byte[4];
        BootstrapProtocol.putInt(answer, 0, worlds.add(count[0]).first());
        return answer;
    }

    /** The processes of ranks {@code first ..} will never meet (they died first): their spawn fails. */
    void failed(int first, int count, String reason) {
        cards.fail(first, count, reason);
    }
}
