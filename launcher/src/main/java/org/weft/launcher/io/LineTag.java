package org.weft.launcher.io;

import java.nio.charset.StandardCharsets;

/** How a forwarded line is tagged on its way to the launcher's output: not at all, with a fixed tag, or re-tagged. */
public interface LineTag {
    /** Writes one line ({@code line[0..length)}) and, if asked, a newline, to {@code sink}, with its tag. */
    void write(OutputSink sink, byte[] line, int length, boolean newline);

    /** Whether lines get a tag: then a last line without newline is ended, so that the next tag starts a line. */
    boolean tags();

    /** Lines as they are. */
    static LineTag none() {
        return fixed("");
    }

    /** Every line behind {@code tag} (none when it is empty). */
    static LineTag fixed(String tag) {
        byte[] prefix = tag.getBytes(StandardCharsets.UTF_8);
        return new LineTag() {
            @Override
            public void write(OutputSink sink, byte[] line, int length, boolean newline) {
                sink.write(prefix, line, 0, length, newline);
            }

            @Override
            public boolean tags() {
                return prefix.length > 0;
            }
        };
    }

    /**
     * The lines of an {@code mpirun --tag-output}: its tag {@code [JOB,R]<STREAM>:} is replaced by Weft's with the
     * global rank {@code rankBase + R}; lines without it (mpirun's own) pass as they are.
     */
    static LineTag openMpi(int rankBase) {
        return new OpenMpiRetag(rankBase);
    }

    /**
     * The lines of an MPICH {@code mpiexec -prepend-rank} on {@code stream}: its tag {@code [R] } is replaced by
     * Weft's with the global rank {@code rankBase + R}; lines without it pass as they are.
     */
    static LineTag hydra(int rankBase, String stream) {
        return new HydraRetag(rankBase, stream);
    }
}
