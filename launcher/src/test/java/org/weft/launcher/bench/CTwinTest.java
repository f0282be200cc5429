package org.weft.launcher.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.weft.launcher.cli.Weft;

/** Which C program is a benchmark's twin, with which arguments; a benchmark without one is refused up front. */
class CTwinTest {
    @Test
    void theJavaBenchmarksOptionsBecomeTheTwinsArguments() {
        assertEquals(Optional.of(new CTwin("pingpong.c", List.of("4096", "500"))),
                CTwin.of("latency", List.of("-m", "4096", "-i", "500")));
        assertEquals(Optional.of(new CTwin("pingpong.c", List.of("4194304"))), CTwin.of("latency", List.of()));
        assertEquals(Optional.of(new CTwin("bandwidth.c", List.of("65536"))), CTwin.of("bw", List.of("-m", "65536")));
        assertEquals(Optional.of(new CTwin("collectives.c", List.of("allreduce", "1048576", "100"))),
                CTwin.of("allreduce", List.of("-i", "100")));
        assertEquals(Optional.of(new CTwin("one-sided.c", List.of("get", "fence", "64"))),
                CTwin.of("get_latency", List.of("-s", "fence", "-m", "64")));
        assertEquals(Optional.of(new CTwin("collectives.c", List.of("barrier", "1048576", "100"))),
                CTwin.of("barrier", List.of("-i", "100")));
        assertEquals(Optional.of(new CTwin("collectives.c", List.of("reduce_scatter_block", "4096"))),
                CTwin.of("reduce_scatter_block", List.of("-m", "4096")));
        assertEquals(Optional.of(new CTwin("collectives.c", List.of("iallreduce", "8192", "50"))),
                CTwin.of("iallreduce", List.of("-m", "8192", "-i", "50")));
        // the least warm-up seconds go to the twin too, so both sides warm up alike
        assertEquals(Optional.of(new CTwin("collectives.c", List.of("bcast", "512", "1000", "0.5"))),
                CTwin.of("bcast", List.of("-m", "512", "-w", "0.5")));
        assertEquals(Optional.of(new CTwin("collectives.c", List.of("gather", "512", "200", "2"))),
                CTwin.of("gather", List.of("-m", "512", "-i", "200", "-w", "2")));
        assertEquals(Optional.empty(), CTwin.of("steady", List.of()));
        assertEquals("pingpong", new CTwin("pingpong.c", List.of()).program());
    }

    @Test
    void referenceOfABenchmarkWithoutTwinIsAUsageError() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        assertEquals(2, Weft.execute(new String[] {"bench", "steady", "--reference"}, InputStream.nullInputStream(),
                print, print));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("--reference: steady has no C twin"), bytes.toString());
    }
}
