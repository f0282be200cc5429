package org.weft.mm.tls;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Which connections between ranks are encrypted. Inside a site the network is the cluster's own and the bytes go
 * as they are; a link that leaves its site crosses networks nobody in the job controls.
 */
public enum TlsPolicy {
    /** Links between ranks of different sites (the default); a job without sites encrypts nothing. */
    CROSS_SITE("cross-site"),
    /** Every connection, inside a site too. */
    ALL("all"),
    /** No connection (a wide area the user trusts, or measurements). */
    NONE("none");

    private final String label;

    TlsPolicy(String label) {
        this.label = label;
    }

    /** Whether a connection between a rank of {@code siteA} and one of {@code siteB} is encrypted. */
    public boolean encrypts(String siteA, String siteB) {
        return switch (this) {
            case ALL -> true;
            case NONE -> false;
            case CROSS_SITE -> !siteA.equals(siteB);
        };
    }

    /** The policy named {@code label}; throws {@link IllegalArgumentException} naming the choices. */
    public static TlsPolicy parse(String label) {
        for (TlsPolicy policy : values()) {
            if (policy.label.equals(label)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("unknown TLS policy '" + label + "' (one of "
                + Arrays.stream(values()).map(TlsPolicy::toString).collect(Collectors.joining(", ")) + ")");
    }

    @Override
    public String toString() {
        return label;
    }
}
