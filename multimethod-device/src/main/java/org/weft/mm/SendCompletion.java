package org.weft.mm;

import java.util.function.Consumer;

/**
 * What a sender learns about one RSR: the method took it (its buffers are free again), or the link failed. Called
 * once, on the thread that handed the RSR to the module — the sender's, or a progress pass that flushed it from the
 * per-peer queue after back-pressure.
 */
public interface SendCompletion {
    void sent();

    void failed(String why);

    /** A completion that does nothing when the RSR is sent and {@code onFailure} when the link fails. */
    static SendCompletion ofFailure(Consumer<String> onFailure) {
        return new SendCompletion() {
            @Override
            public void sent() {
            }

            @Override
            public void failed(String why) {
                onFailure.accept(why);
            }
        };
    }

    /** For RSRs whose sender needs no news (replies, requests to send): failures are reported on stderr. */
    SendCompletion LOG_FAILURE = ofFailure(why -> System.err.println("weft: " + why));
}
