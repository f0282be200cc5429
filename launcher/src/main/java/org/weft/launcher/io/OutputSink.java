package org.weft.launcher.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One of the launcher's own output streams, shared by all ranks' forwarders and the launcher's messages:
 * whole lines are written atomically, so lines of different ranks never mix.
 */
public final class OutputSink {
    private static final byte[] NEWLINE = {'\n'};
    private final OutputStream out;

    public OutputSink(OutputStream out) {
        this.out = out;
    }

    /** Writes {@code prefix}, {@code bytes[0..length)} and, if asked, a newline, as one unit, and flushes. */
    public void write(byte[] prefix, byte[] bytes, int length, boolean newline) {
        write(prefix, bytes, 0, length, newline);
    }

    /** Writes {@code prefix}, {@code length} bytes from {@code offset} and, if asked, a newline, as one unit. */
    public synchronized void write(byte[] prefix, byte[] bytes, int offset, int length, boolean newline) {
        try {
            out.write(prefix);
            out.write(bytes, offset, length);
            if (newline) {
                out.write(NEWLINE);
            }
            out.flush();
        } catch (IOException e) {
            // our own stdout is gone (e.g. a closed pipe); the ranks must not block on it
        }
    }

    /** Writes one line of the launcher's own. */
    public void println(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        write(new byte[0], bytes, bytes.length, true);
    }
}
