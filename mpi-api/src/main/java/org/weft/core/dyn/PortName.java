package org.weft.core.dyn;

import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.weft.adi.DeviceException;
import org.weft.adi.ErrorClass;

/**
 * A port name taken apart: {@code weft-port:JOB/RANK/ADDRESSES/TOKEN} — the id of the job whose process opened
 * it, that process's job rank (it accepts on the port, as its group's root), the {@code host:port} addresses of
 * the port's listener (comma-separated, loopback first), and the port's token (32 random bytes, base64url), which
 * a connecting process proves it holds, and so its right to connect: whoever was given the name, nobody else.
 */
record PortName(String jobId, int owner, List<String> addresses, byte[] token) {
    static final String PREFIX = "weft-port:";
    static final int TOKEN_BYTES = 32;

    PortName {
        addresses = List.copyOf(addresses);
        token = token.clone();
    }

    @Override
    public byte[] token() {
        return token.clone();
    }

    /** The name as the program sees it. */
    String format() {
        return PREFIX + jobId + "/" + owner + "/" + String.join(",", addresses) + "/"
                + Base64.getUrlEncoder().withoutPadding().encodeToString(token);
    }

    /** {@code port} taken apart; {@code ERR_PORT} for anything that is not a Weft port name. */
    static PortName parse(String port) {
        if (port == null || !port.startsWith(PREFIX)) {
            throw new DeviceException(ErrorClass.ERR_PORT, "not a Weft port name: " + port);
        }
        String[] parts = port.substring(PREFIX.length()).split("/", -1);
        try {
            if (parts.length != 4 || parts[0].isEmpty() || parts[2].isEmpty()) {
                throw new IllegalArgumentException("four parts");
            }
            int owner = Integer.parseInt(parts[1]);
            byte[] token = Base64.getUrlDecoder().decode(parts[3]);
            if (owner < 0 || token.length != TOKEN_BYTES) {
                throw new IllegalArgumentException("owner or token");
            }
            return new PortName(parts[0], owner, Arrays.asList(parts[2].split(",")), token);
        } catch (IllegalArgumentException e) {
            throw new DeviceException(ErrorClass.ERR_PORT, "a malformed port name (weft-port:JOB/RANK/ADDRESSES/"
                    + "TOKEN expected): " + port);
        }
    }
}
