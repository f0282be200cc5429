package org.weft.launcher.bench;

import java.io.PrintStream;

/**
 * A sweep's progress, from the rows a benchmark reports against the number it said to {@code expect}: on a terminal
 * a bar on one line of the error stream, redrawn in place ({@code [#######.......] 12/23 osu_latency 2048}) and
 * cleared around any other output line; elsewhere (a file, a pipe, a CI log) a plain line each time another tenth of
 * the rows is done, so that a log shows a long run moving without a line per row. Without an expected count it shows
 * nothing.
 */
public final class Progress {
    private static final int BAR_WIDTH = 30;

    private final PrintStream err;
    private final boolean terminal;
    private String title = "";
    private int expected;
    private int done;
    private String last = "";
    private boolean drawn;

    /** @param terminal whether {@code err} is a terminal (a bar redrawn in place) or not (plain lines) */
    public Progress(PrintStream err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    /** Whether this JVM's standard error is a terminal. */
    public static boolean stderrIsTerminal() {
        // System.console() stands for stdin and stdout; a bar is drawn on stderr, which a shell redirects apart
        var console = System.console();
        return console != null && console.isTerminal() && System.getenv("TERM") != null
                && !"dumb".equals(System.getenv("TERM"));
    }

    synchronized void start(String title) {
        this.title = title;
        this.expected = 0;
        this.done = 0;
    }

    synchronized void expect(int rows) {
        expected = rows;
        draw();
    }

    synchronized void row(String label) {
        done++;
        last = label;
        if (expected <= 0) {
            return;
        }
        if (terminal) {
            draw();
        } else if (done * 10 / expected > (done - 1) * 10 / expected) {
            err.printf("weft bench: %s: %d%% (%d of %d rows, last %s)%n", title, done * 100 / expected, done,
                    expected, last);
        }
    }

    /** Takes the bar off its line before another line is written there. */
    public synchronized void clear() {
        if (drawn) {
            err.print("\r\033[K");
            err.flush();
            drawn = false;
        }
    }

    /** Draws the bar again after another line was written. */
    public synchronized void redraw() {
        draw();
    }

    /** The run is over: the bar goes. */
    public synchronized void finish() {
        clear();
        expected = 0;
    }

    private void draw() {
        if (!terminal || expected <= 0) {
            return;
        }
        int filled = Math.min(BAR_WIDTH, done * BAR_WIDTH / expected);
        err.print("\r[" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "] " + done + "/" + expected + " "
                + title + (last.isEmpty() ? "" : " " + last) + "\033[K");
        err.flush();
        drawn = true;
    }
}
