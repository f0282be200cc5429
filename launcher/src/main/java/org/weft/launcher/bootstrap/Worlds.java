package org.weft.launcher.bootstrap;

import java.util.ArrayList;
import java.util.List;

/**
 * The worlds of one job: the first, of the ranks weftrun started, and one per spawn, each a range of job ranks
 * after the ones before it, with the collective round its ranks share (a spawned world's collectives, its
 * descriptor exchange and finalize barrier, are its own). Thread-safe.
 */
final class Worlds {
    /** One world: job ranks {@code first .. first + size - 1}. */
    record World(int first, int size, CollectiveRound round) {
        boolean contains(int rank) {
            return rank >= first && rank < first + size;
        }
    }

    private final List<World> worlds = new ArrayList<>();
    private int next;

    Worlds(int firstSize) {
        add(firstSize);
    }

    /** Adds a world of {@code size} new ranks after every rank so far; returns it. */
    synchronized World add(int size) {
        World world = new World(next, size, new CollectiveRound(size));
        worlds.add(world);
        next += size;
        return world;
    }

    /** The world of job rank {@code rank}, or {@code null} when no world has it. */
    synchronized World of(int rank) {
        for (World world : worlds) {
            if (world.contains(rank)) {
                return world;
            }
        }
        return null;
    }

    /** How many job ranks there are so far. */
    synchronized int ranks() {
        return next;
    }
}
