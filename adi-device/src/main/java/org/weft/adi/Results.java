package org.weft.adi;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** The value of a completed future, its failure rethrown as what it was (see {@link Device#awaitResult}). */
public final class Results {
    private Results() {
    }

    /** {@code result}'s value; it must be done. */
    public static <T> T valueOf(CompletableFuture<T> result) throws IOException {
        try {
            return result.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException(cause);
        }
    }
}
