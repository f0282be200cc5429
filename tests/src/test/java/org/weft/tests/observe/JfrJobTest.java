package org.weft.tests.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.weft.tests.harness.WeftrunJob;
import org.weft.tests.programs.JfrTraffic;

/**
 * {@code weftrun --jfr}: the ranks' recordings hold Weft's events for the traffic the program made (messages with method, size and peer; the rendezvous; the collectives; the back-pressure wait), each with its
 * rank; without {@code --jfr} the ranks record nothing.
 */
class JfrJobTest {
    @TempDir
    Path dir;

    @Test
    void everyRanksTrafficIsInTheJobsRecording() throws Exception {
        Path recordings = dir.resolve("rec");
        WeftrunJob.Result job = WeftrunJob.of("--jfr", "--jfr-dir=" + recordings, "--param",
                "shm_ring_size=128k", "-np", "3", JfrTraffic.class.getName()).timeout(Duration.ofSeconds(120)).start();
        assertEquals(0, job.exitCode(), job.output());
        assertTrue(job.stdout().contains("JFRTRAFFIC OK"), job.output());
        List<RecordedEvent> events = new ArrayList<>();
        for (int rank = 0; rank < 3; rank++) {
            events.addAll(weftEvents(recordings.resolve("rank-" + rank + ".jfr")));
        }
        assertTrue(job.stderr().contains("recordings of 3 ranks in " + recordings.toAbsolutePath()
                + ": rank-0.jfr rank-1.jfr rank-2.jfr"), job.stderr());

        List<RecordedEvent> sent = named(events, "weft.MessageSent", e -> e.getInt("tag") == JfrTraffic.TAG);
        assertEquals(JfrTraffic.BURST + 1, sent.size(), "rank 0's burst and its large message");
        assertTrue(sent.stream().allMatch(e -> e.getInt("rank") == 0 && e.getInt("peer") == 1
                && e.getString("method").equals("shm")), sent.toString());
        assertEquals(Map.of((long) JfrTraffic.EAGER, (long) JfrTraffic.BURST, (long) JfrTraffic.LARGE, 1L),
                sent.stream().collect(Collectors.groupingBy(e -> e.getLong("bytes"), Collectors.counting())));
        assertEquals("rendezvous", sent.stream().filter(e -> e.getLong("bytes") == JfrTraffic.LARGE).findFirst()
                .orElseThrow().getString("protocol"));

        List<RecordedEvent> received = named(events, "weft.MessageReceived",
                e -> e.getInt("tag") == JfrTraffic.TAG);
        assertEquals(JfrTraffic.BURST + 1, received.size());
        assertTrue(received.stream().allMatch(e -> e.getInt("rank") == 1 && e.getInt("peer") == 0),
                received.toString());

        List<RecordedEvent> rendezvous = named(events, "weft.Rendezvous", e -> e.getLong("bytes") == JfrTraffic.LARGE);
        assertEquals(List.of("0 sender", "1 receiver"), rendezvous.stream()
                .map(e -> e.getInt("rank") + " " + e.getString("side")).sorted().toList());

        for (String operation : List.of("MPI_Bcast", "MPI_Allreduce")) {
            List<RecordedEvent> calls = named(events, "weft.Collective",
                    e -> e.getString("operation").equals(operation));
            assertEquals(List.of(0, 1, 2), calls.stream().map(e -> e.getInt("rank")).sorted().toList(), operation);
            assertTrue(calls.stream().allMatch(e -> e.getInt("size") == 3 && e.getDuration().toNanos() > 0), operation);
        }
        List<RecordedEvent> waits = named(events, "weft.BackPressureWait", e -> true);
        assertTrue(waits.stream().anyMatch(e -> e.getInt("rank") == 0 && e.getInt("peer") == 1
                && e.getInt("queued") > 0), "a 1.6 MB burst into a 128 KiB ring waited:\n" + waits);
    }

    /** Off (the default), the same traffic loads no event class, so it cannot have made or committed one. */
    @Test
    void withoutJfrNoEventClassIsEvenLoaded() throws Exception {
        WeftrunJob.Result job = WeftrunJob.of("-np", "2", "-J", "-Xlog:class+load=info", JfrTraffic.class.getName())
                .start();
        assertEquals(0, job.exitCode(), job.stderr());
        assertTrue(job.stdout().contains("JFRTRAFFIC OK"), job.stderr());
        assertTrue(job.stdout().contains("org.weft.adi.jfr.Jfr "), "the flag's class is loaded");
        List<String> events = job.stdout().lines().filter(line -> line.contains("org.weft.adi.jfr.")
                && !line.contains("org.weft.adi.jfr.Jfr ") || line.contains(" jdk.jfr.")).toList();
        assertEquals(List.of(), events);
        assertTrue(!job.stderr().contains("Flight Recorder"), job.stderr());
    }

    private static List<RecordedEvent> weftEvents(Path file) throws IOException {
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().startsWith("weft.")).toList();
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name, Predicate<RecordedEvent> which) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).filter(which).toList();
    }
}
