package org.weft.launcher.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Copies one rank stream to an {@link OutputSink} line by line, with an optional tag in front of each line
 * ({@code [1,RANK]<stdout>:} as Open MPI's {@code --tag-output}). Runs until the stream ends.
 */
public final class LineForwarder implements Runnable {
    /** A line longer than this is forwarded in pieces rather than buffered without bound. */
    private static final int MAX_LINE = 64 * 1024;

    private final InputStream in;
    private final OutputSink sink;
    private final LineTag tag;
    private byte[] line = new byte[256];
    private int length;

    /** @param tag the prefix of every line, or the empty string for none */
    public LineForwarder(InputStream in, OutputSink sink, String tag) {
        this(in, sink, LineTag.fixed(tag));
    }

    /** @param tag how each line is tagged */
    public LineForwarder(InputStream in, OutputSink sink, LineTag tag) {
        this.in = in;
        this.sink = sink;
        this.tag = tag;
    }

    /** The Open MPI {@code --tag-output} prefix of a rank's stream ({@code stdout} or {@code stderr}). */
    public static String tag(int rank, String stream) {
        return "[1," + rank + "]<" + stream + ">:";
    }

    @Override
    public void run() {
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                for (int i = 0; i < n; i++) {
                    byte b = buffer[i];
                    if (b == '\n') {
                        emit(true);
                    } else {
                        append(b);
                        if (length >= MAX_LINE) {
                            emit(true);
                        }
                    }
                }
            }
        } catch (IOException e) {
            // the rank is gone; forward what we have
        }
        if (length > 0) {
            // a last line without newline: keep it as is, but a tagged line must end before the next tag
            emit(tag.tags());
        }
    }

    private void append(byte b) {
        if (length == line.length) {
            line = Arrays.copyOf(line, line.length * 2);
        }
        line[length++] = b;
    }

    private void emit(boolean newline) {
        tag.write(sink, line, length, newline);
        length = 0;
    }
}
