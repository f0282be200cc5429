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
import mpi.Op;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.weft.tests.harness.InProcessWorld;
import org.weft.tests.harness.MessageCountingDevice;

/**
 * Collectives on a communicator that spans several sites cross the slow links once per site (MPICH-G2's
 * multilevel collectives): 8 ranks spread round-robin over 2 and over 4 sites (so a flat tree would cross sites
 * at almost every edge), and the messages crossing sites are counted by a counter in front of each real device.
 * The counts follow the number of sites, not the number of ranks, and the results stay right. Inside each site the
 * part of the collective runs on the site's own fast path (two levels, {@code coll.level}): the sites' ranks share a
 * host, so their shared segment, and no message stays inside a site.
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
            if (op.startsWith("within ")) {
                assertEquals(0, fourSites.get(op), op + " over 4 sites: " + fourSites);
                assertEquals(0, twoSites.get(op), op + " over 2 sites: " + twoSites);
            } else {
                assertTrue(fourSites.get(op) < RANKS * 3, op + " crosses sites " + fourSites.get(op)
                        + " times: more than a flat algorithm over " + RANKS + " ranks would");
            }
        }
    }

    /**
     * Sites of consecutive ranks (two levels keep a non-commutative operation's rank order) and interleaved ones
     * (which keep the schedules for it): every reduction in rank order, at a root that leads its site and one that
     * does not, in place and not, and a bcast from a rank that does not lead its site; a communicator freed and
     * made again (its internal communicators go with it). Also sites of two hosts each, whose site communicators
     * split again by host (the levels' recursion).
     */
    @Test
    void reductionsInRankOrderAndRootsThatDoNotLeadTheirSite() throws Exception {
        for (int layout = 0; layout < 3; layout++) {
            boolean consecutive = layout != 1;
            boolean hosts = layout == 2;
            InProcessWorld.of(RANKS).perRank("site", r -> consecutive ? "s" + r / 4 : "s" + r % 2)
                    .perRank("host", r -> hosts ? "h" + r / 2 : "h")
                    .timeout(Duration.ofSeconds(100)).run(rank -> {
                        Op affine = new Op(new AffineComposition(), false);
                        for (int round = 0; round < 2; round++) {
                            Intracomm comm = (Intracomm) MPI.COMM_WORLD.dup();
                            reduceEveryWay(comm, rank, affine);
                            comm.free();
                        }
                        affine.free();
                    });
        }
    }

    private static void reduceEveryWay(Intracomm comm, int rank, Op affine) throws Exception {
        int[] expected = AffineComposition.expected(RANKS, 4);
        int[] all = AffineComposition.contribution(rank, 4);
        comm.allReduce(all, 4, MPI.INT, affine);
        assertArrayEquals(expected, all, "allreduce in rank order");
        for (int root : new int[] {0, 5}) {
            int[] got = new int[4];
            comm.reduce(AffineComposition.contribution(rank, 4), got, 4, MPI.INT, affine, root);
            if (rank == root) {
                assertArrayEquals(expected, got, "reduce in rank order to " + root);
            }
            int[] sum = {rank, 2 * rank};
            if (rank == root) {
                comm.reduce(sum, 2, MPI.INT, MPI.SUM, root);
                assertArrayEquals(new int[] {28, 56}, sum, "reduce in place to " + root);
            } else {
                comm.reduce(sum, new int[2], 2, MPI.INT, MPI.SUM, root);
            }
            long[] data = rank == root ? new long[] {7, root} : new long[2];
            comm.bcast(data, 2, MPI.LONG, root);
            assertArrayEquals(new long[] {7, root}, data, "bcast from " + root);
        }
        double[] inPlace = {rank};
        comm.allReduce(inPlace, 1, MPI.DOUBLE, MPI.MAX);
        assertEquals(RANKS - 1, inPlace[0]);
        comm.barrier();
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
                    world.barrier(); // the sites' communicators and segments are made at the first collective
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
        long beforeWithin = device.withinSiteMessages();
        step.run();
        long crossed = device.crossSiteMessages() - before;
        long within = device.withinSiteMessages() - beforeWithin;
        MPI.COMM_WORLD.barrier();
        counts.merge(name, crossed, Long::sum);
        counts.merge("within " + name, within, Long::sum);
        assertTrue(crossed >= 0, Arrays.toString(new long[] {crossed}));
    }
}
