package org.weft.launcher.io;

import java.nio.charset.StandardCharsets;

/**
 * Replaces the tag {@code [R] } that MPICH's Hydra puts before each line with {@code -prepend-rank} (R: the rank
 * within one {@code mpiexec}; its stdout and stderr stay apart, so the stream is this forwarder's) by
 * {@link LineForwarder#tag}'s with the global rank. Lines without it (Hydra's own) pass as they are.
 */
final class HydraRetag implements LineTag {
    private static final byte[] NONE = new byte[0];
    private final int rankBase;
    private final String stream;

    HydraRetag(int rankBase, String stream) {
        this.rankBase = rankBase;
        this.stream = stream;
    }

    @Override
    public boolean tags() {
        return true;
    }

    @Override
    public void write(OutputSink sink, byte[] line, int length, boolean newline) {
        int close = tagClose(line, length);
        if (close < 0) {
            sink.write(NONE, line, 0, length, newline);
            return;
        }
        int rank = rankBase + Integer.parseInt(new String(line, 1, close - 1, StandardCharsets.US_ASCII));
        byte[] tag = LineForwarder.tag(rank, stream).getBytes(StandardCharsets.UTF_8);
        sink.write(tag, line, close + 2, length - close - 2, newline);
    }

    /** The index of the {@code ]} of a well-formed {@code [digits] } at the start, or -1 if the line has none. */
    static int tagClose(byte[] line, int length) {
        if (length < 3 || line[0] != '[') {
            return -1;
        }
        int i = 1;
        while (i < length && i <= 10 && line[i] >= '0' && line[i] <= '9') {
            i++;
        }
        boolean wellFormed = i > 1 && i + 1 < length && line[i] == ']' && line[i + 1] == ' ';
        return wellFormed ? i : -1;
    }
}
