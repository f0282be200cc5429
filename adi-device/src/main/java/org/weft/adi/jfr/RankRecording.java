package org.weft.adi.jfr;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * The Flight Recorder recording of one rank that {@code weftrun --jfr} asks for: JFR's {@code default} settings plus
 * Weft's events, from {@code MPI_Init} to {@code MPI_Finalize}, written to {@code DIR/rank-N.jfr} ({@link Jfr#JFR_DIR});
 * a rank that ends without finalizing writes it as the JVM exits, unless it is killed or halts (an abort).
 */
public final class RankRecording {
    private static Recording recording;

    private RankRecording() {
    }

    /** Starts this rank's recording if {@code weftrun --jfr} asked for one; a failure is said, never fatal. */
    public static synchronized void start(int rank) {
        String directory = System.getenv(Jfr.JFR_DIR.environmentName());
        if (directory == null || directory.isBlank() || recording != null) {
            return;
        }
        try {
            Path file = Path.of(directory, "rank-" + rank + ".jfr");
            Files.createDirectories(file.getParent());
            Recording r = new Recording(Configuration.getConfiguration("default"));
            r.setName("weft rank " + rank);
            r.setDestination(file);
            r.setDumpOnExit(true);
            r.start();
            recording = r;
        } catch (IOException | ParseException | RuntimeException e) {
            System.err.println("weft: rank " + rank + " records no Flight Recorder events: " + e);
        }
    }

    /** Stops the recording and writes its file (at {@code MPI_Finalize}). */
    public static synchronized void stop() {
        if (recording == null) {
            return;
        }
        try {
            recording.stop();
        } catch (RuntimeException e) {
            System.err.println("weft: the Flight Recorder recording could not be written: " + e);
        } finally {
            recording.close();
            recording = null;
        }
    }
}
