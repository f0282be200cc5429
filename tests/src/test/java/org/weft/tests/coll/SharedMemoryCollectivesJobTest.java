package org.weft.tests.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.InOneJob;
import org.weft.tests.programs.LargeBlockCollectives;
import org.weft.tests.programs.SharedCollectivesCheck;
import org.weft.tests.programs.SharedNonblockingCheck;

/**
 * Blocking and nonblocking barrier, bcast, reduce, allreduce, reduce_scatter_block, allgather, gather, scatter and
 * alltoall through a communicator's shared segment when all its ranks are on one host over shm: results equal a
 * sequential computation for every predefined operation and type, on sub-communicators used in turns, communicators
 * freed and made again (no segment file left), an intercommunicator and a nonblocking collective outstanding
 * alongside; small collectives then send (almost) no messages, and the writers of small rooted ones run 100 calls
 * ahead of their readers. Over tcp the same calls keep the point-to-point schedules and give the same results.
 */
@Timeout(900)
class SharedMemoryCollectivesJobTest {
    /** Many times a job's time on a loaded machine (4 ranks took 99 s at load 35 with twice the calls). */
    private static final Duration TIMEOUT = Duration.ofMinutes(4);

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void collectivesOnOneHostGoThroughSharedMemoryAndGiveTheSequentialResults(int ranks) throws Exception {
        // the check's writers run 100 calls ahead of their readers: the ahead slots (coll_shm_ahead) are what allow it
        WeftrunJob.Result result = WeftrunJob.of("-np", String.valueOf(ranks), "--param", "coll_shm_ahead=1",
                SharedCollectivesCheck.class.getName(), "shared").timeout(TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        for (int r = 0; r < ranks; r++) {
            assertTrue(result.stdout().contains("SHARED-COLLECTIVES OK rank " + r), result.output());
        }
    }

    /**
     * Blocks around a slot and far beyond it, in direct buffers and arrays, and counts that differ between ranks
     * across the slot's size (short blocks; a block longer than its receiver's is {@code ERR_TRUNCATE} there): every
     * byte right, and no rank left waiting on a path the others did not take. In the same job (one start instead of
     * two) at 2 to 4 ranks: the nonblocking barrier, reduce, allreduce, reduce_scatter_block, bcast, gather, scatter,
     * allgather and alltoall (and the blocking reduce_scatter_block) go through the segment once a blocking call made
     * it: sequential results, many outstanding, and (almost) no messages; before, they were point-to-point schedules
     * (thousands of messages).
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 8})
    void largeAndMismatchedBlocksArriveWholeWithoutAHangAndNonblockingCollectivesGoThroughSharedMemory(int ranks)
            throws Exception {
        boolean nonblocking = ranks <= 4;
        List<String> programs = new ArrayList<>(List.of("-np", String.valueOf(ranks), InOneJob.class.getName()));
        if (nonblocking) {
            programs.addAll(List.of(SharedNonblockingCheck.class.getSimpleName(), "shared", "+"));
        }
        programs.add(LargeBlockCollectives.class.getSimpleName());
        WeftrunJob.Result result = WeftrunJob.of(programs.toArray(String[]::new)).timeout(TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        for (int r = 0; r < ranks; r++) {
            assertTrue(result.stdout().contains("LARGE-BLOCKS OK rank " + r), result.output());
            assertTrue(!nonblocking || result.stdout().contains("SHARED-NONBLOCKING OK rank " + r), result.output());
        }
    }

    @Test
    void overTcpTheSameCollectivesKeepTheirMessages() throws Exception {
        WeftrunJob.Result result = WeftrunJob.of("-np", "3", "--param", "methods=self,tcp",
                InOneJob.class.getName(), SharedCollectivesCheck.class.getSimpleName(), "messages", "+",
                SharedNonblockingCheck.class.getSimpleName()).timeout(TIMEOUT).start();
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("SHARED-COLLECTIVES OK rank 2"), result.output());
        assertTrue(result.stdout().contains("SHARED-NONBLOCKING OK rank 2"), result.output());
    }
}
