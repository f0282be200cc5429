package org.weft.adi;

import java.util.List;
import java.util.Map;

/**
 * What a device tells about one process (feedback, after the papers' enquiry functions): the method each peer
 * uses ({@code null} where the peer was never addressed), what each method carried and how often polling it found
 * work, the idle strategy, and the methods that could not run here with the reason.
 */
public record DeviceReport(int rank, String host, String idleStrategy, List<String> methodByPeer,
                           List<MethodReport> methods, Map<String, String> unavailableMethods) {
    public DeviceReport {
        methodByPeer = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(methodByPeer));
        methods = List.copyOf(methods);
        unavailableMethods = Map.copyOf(unavailableMethods);
    }

    /** Counters of one method in one process. */
    public record MethodReport(String method, long rsrsSent, long bytesSent, long rsrsDelivered,
                               long bytesDelivered, long polls, long productivePolls) {
    }
}
