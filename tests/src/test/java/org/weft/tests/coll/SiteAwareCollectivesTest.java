package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

import mpi.Intracomm;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.InProcessWorld;
import org.weft.tests.harness.MessageCountingDevice;

/**
 * Collectives on a communicator that spans several sites cross the slow links once per site (MPICH-G2's
 * multilevel collectives): 8 ranks spread round-robin over 2 and over 4 sites (so a flat tree would cross sites
 * at almost every edge), and the messages crossing sites are counted by a counter in front of each real device.
 * The counts follow the number of sites, not the number of ranks, and the results stay right.
 */
@Timeout(120)
class SiteAwareCollectivesTest {
    private static final int RANKS = 8;

    @Test
    void bcastReduceAllreduceAndBarrierCrossSitesPerSiteNotPerRank() throws Exception {
        Map<String, Long> twoSites = crossSiteCounts(2);
        Map<String, Long> fourSites = crossSiteCounts(4);
        // bcast and reduce: a tree among the site leaders, sites − 1 messages
        assertEquals(1, twoSites.get("bcast"), "bcast over 2 sites: " + twoSites);
        assertEquals(3, fourSites.get("bcast"), "bcast over 4 sites: " + fourSites);
        assertEquals(1, twoSites.get("reduce"), "reduce over 2 sites: " + twoSites);
        assertEquals(3, fourSites.get("reduce"), "reduce over 4 sites: " + fourSites);
        // allreduce: recursive doubling among the leaders, sites × log2(sites) messages
        assertEquals(2, twoSites.get("allreduce"), "allreduce over 2 sites: " + twoSites);
        assertEquals(8, fourSites.get("allreduce"), "allreduce over 4 sites: " + fourSites);
        // barrier: dissemination among the leaders, sites × ⌈log2 sites⌉ messages
        assertEquals(2, twoSites.get("barrier"), "barrier over 2 sites: " + twoSites);
        assertEquals(8, fourSites.get("barrier"), "barrier over 4 sites: " + fourSites);
        for (String op : fourSites.keySet()) {
            assertTrue(fourSites.get(op) < RANKS * 3, op + " crosses sites " + fourSites.get(op)
                    + " times: more than a flat algorithm over " + RANKS + " ranks would");
        }
    }

    /** Messages that crossed sites during each collective, summed over the ranks. */
    private static Map<String, Long> crossSiteCounts(int sites) throws Exception {
        AtomicReferenceArray<MessageCountingDevice> devices = new AtomicReferenceArray<>(RANKS);
        Map<String, Long> counts = new ConcurrentHashMap<>();
        InProcessWorld.of(RANKS).perRank("site", r -> "site" + r % sites).timeout(Duration.ofSeconds(100))
                .wrapDevice((rank, device) -> {
                    MessageCountingDevice counting = new MessageCountingDevice(device);
                    devices.set(rank, counting);
                    return counting;
                })
                .run(rank -> {
                    Intracomm world = MPI.COMM_WORLD;
                    MessageCountingDevice device = devices.get(rank);
                    int root = 5;
                    int[] data = rank == root ? new int[] {1, 2, 3} : new int[3];
                    count(counts, "bcast", device, () -> world.bcast(data, 3, MPI.INT, root));
                    assertArrayEquals(new int[] {1, 2, 3}, data);
                    int[] sum = new int[1];
                    count(counts, "reduce", device, () -> world.reduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM,
                            root));
                    if (rank == root) {
                        assertEquals(RANKS * (RANKS - 1) / 2, sum[0]);
                    }
                    int[] all = {rank};
                    count(counts, "allreduce", device, () -> world.allReduce(all, 1, MPI.INT, MPI.SUM));
                    assertEquals(RANKS * (RANKS - 1) / 2, all[0]);
                    count(counts, "barrier", device, world::barrier);
                });
        return new TreeMap<>(counts);
    }

    private interface Step {
        void run() throws Exception;
    }

    /** Runs a collective between barriers (so no other traffic mixes in) and adds this rank's crossings. */
    private static void count(Map<String, Long> counts, String name, MessageCountingDevice device, Step step)
            throws Exception {
        MPI.COMM_WORLD.barrier();
        long before = device.crossSiteMessages();
        step.run();
        long crossed = device.crossSiteMessages() - before;
        MPI.COMM_WORLD.barrier();
        counts.merge(name, crossed, Long::sum);
        assertTrue(crossed >= 0, Arrays.toString(new long[] {crossed}));
    }
}
