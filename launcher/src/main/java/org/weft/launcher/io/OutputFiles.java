package org.weft.launcher.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --output-filename DIR[:nocopy]}: each rank's output also goes to files, in Open MPI's layout
 * {@code DIR/1/rank.N/stdout} and {@code .../stderr} (1 is the job, as Open MPI numbers a first job; N is the rank,
 * zero-padded to as many digits as the size of the world has, as Open MPI pads it: rank.00 to rank.11 for 12). Lines go to the files as the
 * program wrote them, untagged, and to the terminal as well unless {@code :nocopy} is given. The launcher writes
 * the files, on its own host, for ranks on every host; a relative DIR is taken from the launcher's working
 * directory.
 */
public final class OutputFiles implements AutoCloseable {
    private static final byte[] NO_PREFIX = new byte[0];
    private static final String NO_COPY = ":nocopy";

    private final Path jobDirectory;
    private final boolean copy;
    private final int digits;
    private final List<OutputStream> opened = new ArrayList<>();

    private OutputFiles(Path jobDirectory, boolean copy, int np) {
        this.jobDirectory = jobDirectory;
        this.copy = copy;
        this.digits = Integer.toString(np).length(); // as Open MPI: the digits of the world's size
    }

    /**
     * The files of {@code option} ({@code DIR} or {@code DIR:nocopy}) for a world of {@code np} ranks.
     *
     * @throws IllegalArgumentException for an empty directory name
     */
    public static OutputFiles of(String option, int np) {
        boolean copy = !option.endsWith(NO_COPY);
        String dir = copy ? option : option.substring(0, option.length() - NO_COPY.length());
        if (dir.isBlank()) {
            throw new IllegalArgumentException("--output-filename " + option + ": no directory");
        }
        return new OutputFiles(Path.of(dir).toAbsolutePath().resolve("1"), copy, np);
    }

    /** {@code DIR/1/rank.N}. */
    public Path rankDirectory(int rank) {
        String number = Integer.toString(rank);
        return jobDirectory.resolve("rank." + "0".repeat(Math.max(0, digits - number.length())) + number);
    }

    /**
     * {@code terminal} with each line also written to {@code rank}'s file for {@code stream} ({@code stdout} or
     * {@code stderr}), made now (empty until the rank writes); without {@code :nocopy} it goes to the terminal too.
     *
     * @throws UncheckedIOException when the file cannot be made
     */
    public synchronized LineTag tee(LineTag terminal, int rank, String stream) {
        OutputSink file;
        try {
            Path dir = Files.createDirectories(rankDirectory(rank));
            OutputStream out = new BufferedOutputStream(Files.newOutputStream(dir.resolve(stream)));
            opened.add(out);
            file = new OutputSink(out);
        } catch (IOException e) {
            throw new UncheckedIOException("--output-filename: cannot write " + rankDirectory(rank).resolve(stream)
                    + ": " + e.getMessage(), e);
        }
        return new LineTag() {
            @Override
            public void write(OutputSink sink, byte[] line, int length, boolean newline) {
                file.write(NO_PREFIX, line, 0, length, newline);
                if (copy) {
                    terminal.write(sink, line, length, newline);
                }
            }

            @Override
            public boolean tags() {
                return terminal.tags();
            }
        };
    }

    /** Closes every file (after the forwarders have ended). */
    @Override
    public synchronized void close() {
        for (OutputStream out : opened) {
            try {
                out.close();
            } catch (IOException e) {
                // the lines were flushed as they came; nothing more to save
            }
        }
        opened.clear();
    }
}
