package org.weft.adi.concurrent;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * A call that blocks on something other than the device (the launcher's bootstrap service, a socket), run on a
 * thread of its own so that the caller can await its result while it goes on progressing the device
 * ({@link org.weft.adi.Device#awaitResult}): a process blocked outside the device would leave its peers waiting
 * for what only its polls move (a TLS handshake its last send waits behind, a back-pressured queue).
 */
@FunctionalInterface
public interface BlockingCall<T> {
    T call() throws IOException;

    /** Starts {@code call} on a daemon thread named {@code name}; the future completes with its result or failure. */
    static <T> CompletableFuture<T> onThread(String name, BlockingCall<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name(name).start(() -> {
            try {
                result.complete(call.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }
}
