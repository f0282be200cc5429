package org.weft.adi;

import java.util.List;
import java.util.Map;

/**
 * What a device tells about one process (feedback, after the papers' enquiry functions): the method each peer
 * uses ({@code null} where the peer was never addressed), what each method carried and how often polling it found
 * work, the idle strategy, the methods that could not run here with the reason, and what the methods say beyond
 * their counters ({@code notes}: one sentence each, e.g. a path's aggregation policy and its messages per frame).
 */
public record DeviceReport(int rank, String host, String idleStrategy, List<String> methodByPeer,
                           List<MethodReport> methods, Map<String, String> unavailableMethods, List<String> notes) {
    public DeviceReport {
        notes = List.copyOf(notes);
        methodByPeer = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(methodByPeer));
        methods = List.copyOf(methods);
        unavailableMethods = Map.copyOf(unavailableMethods);
    }

    /** Counters of one method in one process. */
    public record MethodReport(String method, long rsrsSent, long bytesSent, long rsrsDelivered,
                               long bytesDelivered, long polls, long productivePolls) {
    }
}
