package org.weft.launcher.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.weft.adi.jfr.Jfr;
import picocli.CommandLine.Option;

/**
 * {@code weftrun --jfr [--jfr-dir DIR]}: every rank records itself with JDK Flight Recorder, Weft's events on
 * ({@code WEFT_JFR=1}), into {@code DIR/rank-N.jfr} ({@code WEFT_JFR_DIR}), each Weft event carrying its rank; when
 * the job has ended weftrun lists the files, which JDK Mission Control opens together as the job's traffic. The
 * recordings are named, not joined into one: JFR's chunks can follow one another in a file only within one JVM's
 * recording (JDK 25's parser, and {@code jfr assemble}'s output, fail on chunks of two JVMs). Ranks on other hosts
 * write into the same path there: on a shared file system all the files are in DIR.
 */
final class JfrOption {
    @Option(names = "--jfr", description = "Record every rank with JDK Flight Recorder, Weft's events on, into"
            + " DIR/rank-N.jfr (see --jfr-dir) for JDK Mission Control.")
    private boolean on;

    @Option(names = "--jfr-dir", paramLabel = "DIR", description = "Where --jfr writes rank-N.jfr"
            + " (default: weft-jfr-DATE-TIME in the working directory; implies --jfr).")
    private Path directory;

    boolean on() {
        return on || directory != null;
    }

    /** The ranks' environment for the recording: none without {@code --jfr}. */
    Map<String, String> environment() {
        if (!on()) {
            return Map.of();
        }
        return Map.of(Jfr.JFR.environmentName(), "1",
                Jfr.JFR_DIR.environmentName(), directory().toAbsolutePath().toString());
    }

    /** The recordings' directory, named once. */
    Path directory() {
        if (directory == null) {
            directory = Path.of("weft-jfr-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern(
                    "yyyyMMdd-HHmmss")));
        }
        return directory;
    }

    /** After the job: says which ranks' recordings are where (nothing without --jfr). */
    void listRecordings(PrintStream err) {
        if (!on()) {
            return;
        }
        Path dir = directory().toAbsolutePath();
        List<Path> ranks = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(f -> f.getFileName().toString().matches("rank-\\d+\\.jfr")).forEach(ranks::add);
        } catch (IOException e) {
            err.println("weftrun: --jfr: no recordings in " + dir + " (" + e.getMessage() + ")");
            return;
        }
        ranks.sort(Comparator.comparingInt(JfrOption::rankOf));
        err.println("weftrun: Flight Recorder recordings of " + ranks.size() + " ranks in " + dir + ": "
                + String.join(" ", ranks.stream().map(f -> f.getFileName().toString()).toList())
                + " (JDK Mission Control opens them together; jfr print --events 'weft.*' FILE)");
    }

    private static int rankOf(Path file) {
        String name = file.getFileName().toString();
        return Integer.parseInt(name.substring("rank-".length(), name.length() - ".jfr".length()));
    }
}
