package org.weft.mm.spi;

/** An RSR that names no handler or whose body does not parse: the link it came on is closed. */
public final class MalformedRsrException extends RuntimeException {
    public MalformedRsrException(String message) {
        super(message);
    }
}
