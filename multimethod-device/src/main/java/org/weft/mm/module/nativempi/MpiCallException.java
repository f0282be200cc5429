package org.weft.mm.module.nativempi;

/** An MPI call returned an error code; the message names the call and gives the library's own text. */
final class MpiCallException extends RuntimeException {
    MpiCallException(String message) {
        super(message);
    }
}
