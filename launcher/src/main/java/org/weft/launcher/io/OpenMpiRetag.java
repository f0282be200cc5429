package org.weft.launcher.io;

import java.nio.charset.StandardCharsets;

/**
 * Replaces Open MPI's output tag {@code [JOB,R]<STREAM>:} (R: the rank within one {@code mpirun}) by
 * {@link LineForwarder#tag}'s with the global rank, so that a job's lines carry one numbering whoever started them.
 */
final class OpenMpiRetag implements LineTag {
    private static final byte[] NONE = new byte[0];
    private final int rankBase;

    OpenMpiRetag(int rankBase) {
        this.rankBase = rankBase;
    }

    @Override
    public boolean tags() {
        return true;
    }

    @Override
    public void write(OutputSink sink, byte[] line, int length, boolean newline) {
        int end = tagEnd(line, length);
        if (end < 0) {
            sink.write(NONE, line, 0, length, newline);
            return;
        }
        int comma = indexOf(line, (byte) ',', 1, end);
        int close = indexOf(line, (byte) ']', comma, end);
        int rank = rankBase + Integer.parseInt(ascii(line, comma + 1, close));
        String stream = ascii(line, close + 2, end - 2);
        byte[] tag = LineForwarder.tag(rank, stream).getBytes(StandardCharsets.UTF_8);
        sink.write(tag, line, end, length - end, newline);
    }

    /** Where the text after a well-formed {@code [digits,digits]<word>:} starts, or -1 if the line has none. */
    static int tagEnd(byte[] line, int length) {
        int i = 0;
        if (length < 1 || line[i++] != '[') {
            return -1;
        }
        i = digits(line, i, length);
        if (i < 0 || i >= length || line[i++] != ',') {
            return -1;
        }
        i = digits(line, i, length);
        if (i < 0 || i + 1 >= length || line[i] != ']' || line[i + 1] != '<') {
            return -1;
        }
        int close = indexOf(line, (byte) '>', i + 2, length);
        if (close < 0 || close == i + 2 || close + 1 >= length || line[close + 1] != ':') {
            return -1;
        }
        return close + 2;
    }

    /** The index after a non-empty run of ASCII digits starting at {@code from}, or -1. */
    private static int digits(byte[] line, int from, int length) {
        int i = from;
        while (i < length && line[i] >= '0' && line[i] <= '9') {
            i++;
        }
        return i > from && i - from < 10 ? i : -1;
    }

    private static int indexOf(byte[] line, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (line[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static String ascii(byte[] line, int from, int to) {
        return new String(line, from, to - from, StandardCharsets.US_ASCII);
    }
}
