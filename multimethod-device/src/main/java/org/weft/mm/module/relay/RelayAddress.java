package org.weft.mm.module.relay;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.weft.mm.module.tcp.TcpAddress;

/**
 * A relay: the site whose ranks it serves and where it listens, written {@code SITE@HOSTS:PORT}
 * ({@code b@10.81.2.254:41234}), as the launcher hands the job's relays to the ranks ({@code relays}, separated by
 * {@code ;}) and as a rank's {@code relay} descriptor names the relay that reaches it.
 */
public record RelayAddress(String site, TcpAddress address) {
    public RelayAddress {
        if (site.isEmpty() || site.indexOf('@') >= 0 || site.indexOf(';') >= 0) {
            throw new IllegalArgumentException("relay site '" + site + "'");
        }
    }

    /** Reads {@code SITE@HOSTS:PORT}; throws {@link IllegalArgumentException} naming what is wrong. */
    public static RelayAddress parse(String text) {
        int at = text.indexOf('@');
        int colon = text.lastIndexOf(':');
        if (at <= 0 || colon < at + 2 || colon == text.length() - 1) {
            throw new IllegalArgumentException("relay '" + text + "' is not SITE@HOSTS:PORT");
        }
        try {
            int port = Integer.parseInt(text.substring(colon + 1));
            return new RelayAddress(text.substring(0, at),
                    new TcpAddress(List.of(text.substring(at + 1, colon).split(",")), port));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("relay '" + text + "': bad port");
        }
    }

    /** The {@code relays} parameter: each site's relay, in order; empty for none. */
    public static Map<String, RelayAddress> parseAll(String text) {
        Map<String, RelayAddress> relays = new LinkedHashMap<>();
        for (String one : text.split(";")) {
            if (!one.isBlank()) {
                RelayAddress relay = parse(one.strip());
                relays.put(relay.site(), relay);
            }
        }
        return relays;
    }

    /** The relay a descriptor names, or {@code null} for a rank that no relay of its own reaches. */
    static RelayAddress ofDescriptorData(byte[] data) {
        return data.length == 0 ? null : parse(new String(data, StandardCharsets.UTF_8));
    }

    byte[] toDescriptorData() {
        return toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@code where} as messages name it: {@code relay b (10.81.2.254:41234)}. */
    public String describe() {
        return "relay " + site + " (" + address + ")";
    }

    @Override
    public String toString() {
        return site + "@" + String.join(",", address.hosts()) + ":" + address.port();
    }
}
