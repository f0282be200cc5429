package org.weft.mm.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.weft.adi.param.Parameters;

/** Which CPUs a rank takes, and what it says; binding itself is checked by the tests' BindingJobTest. */
class CpuBindingTest {
    @Test
    void cpuListsAreWrittenAsLinuxWritesThem() {
        BitSet cpus = new BitSet();
        cpus.set(0, 4);
        cpus.set(6);
        cpus.set(8, 10);
        assertEquals("0-3,6,8-9", CpuBinding.cpuList(cpus));
        assertEquals("", CpuBinding.cpuList(new BitSet()));
    }

    @Test
    void everyAllowedCpuIsInExactlyOneCoreAndOneHwthread() {
        BitSet allowed = new BitSet();
        allowed.set(0, Runtime.getRuntime().availableProcessors());
        List<BitSet> cores = CpuBinding.cores(allowed);
        BitSet union = new BitSet();
        cores.forEach(core -> {
            assertTrue(!core.intersects(union), "cores do not overlap: " + cores);
            union.or(core);
        });
        assertEquals(allowed, union);
        assertEquals(allowed.cardinality(), CpuBinding.hwthreads(allowed).size());
    }

    @Test
    void unboundRanksSayNothingUnlessAskedAndAnUnknownUnitIsRefused() {
        List<String> said = new ArrayList<>();
        CpuBinding.apply(new Parameters(Map.of(), Map.of()), 0, 1, 2, "h", said::add);
        assertEquals(List.of(), said);
        CpuBinding.apply(new Parameters(Map.of("report_bindings", "1"), Map.of()), 3, 4, 2, "h", said::add);
        assertTrue(said.getFirst().matches("\\[h:\\d+] MCW rank 3 is not bound.*"), said.toString());
        said.clear(); // by default (auto) a rank started by weftrun with more ranks than CPUs on its host is not bound
        CpuBinding.apply(new Parameters(Map.of("report_bindings", "1", "local_rank", "2"), Map.of()), 2, 3, 2, "h",
                said::add);
        assertTrue(said.getFirst().matches("\\[h:\\d+] MCW rank 2 is not bound.*"), said.toString());
        assertThrows(IllegalArgumentException.class, () ->
                CpuBinding.apply(new Parameters(Map.of("bind_to", "socket"), Map.of()), 0, 1, 2, "h", said::add));
    }
}
