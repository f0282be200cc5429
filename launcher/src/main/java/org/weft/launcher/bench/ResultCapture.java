package org.weft.launcher.bench;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The output stream {@code weft bench} gives its job in place of its own: it takes the benchmark's result lines out
 * (to {@link ResultLines}) and passes every other line on, taking the progress bar off its line while it does. The
 * launcher writes a rank's line in one piece and flushes it, so lines arrive whole; a last line without a newline is
 * passed on when the stream is flushed or closed.
 */
public final class ResultCapture extends OutputStream {
    private final PrintStream out;
    private final PrintStream err;
    private final ResultLines results;
    private final Progress progress;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    /**
     * @param out where the other lines go
     * @param err where unreadable result lines are reported
     */
    public ResultCapture(PrintStream out, PrintStream err, ResultLines results, Progress progress) {
        this.out = out;
        this.err = err;
        this.results = results;
        this.progress = progress;
    }

    @Override
    public synchronized void write(int b) {
        if (b == '\n') {
            take(true);
        } else {
            line.write(b);
        }
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            write(bytes[i]);
        }
    }

    @Override
    public synchronized void flush() {
        out.flush();
    }

    @Override
    public synchronized void close() {
        if (line.size() > 0) {
            take(false);
        }
        out.flush();
    }

    private void take(boolean newline) {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        if (ResultLines.isResultLine(text)) {
            String error = results.accept(text);
            if (error != null) {
                progress.clear();
                err.println("weft bench: " + error);
                progress.redraw();
            }
            return;
        }
        progress.clear();
        out.print(newline ? text + "\n" : text);
        out.flush();
        progress.redraw();
    }
}
