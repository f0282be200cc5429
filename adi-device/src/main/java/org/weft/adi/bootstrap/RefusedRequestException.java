package org.weft.adi.bootstrap;

import java.io.IOException;

/** The launcher answered a {@link LauncherRequests request} with an MPI error class (a name taken, a spawn failed). */
public final class RefusedRequestException extends IOException {
    private final int errorClass;

    public RefusedRequestException(int errorClass, String message) {
        super(message);
        this.errorClass = errorClass;
    }

    public int errorClass() {
        return errorClass;
    }
}
