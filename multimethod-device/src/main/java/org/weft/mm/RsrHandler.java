package org.weft.mm;

import java.nio.ByteBuffer;

/**
 * The code an RSR runs at its endpoint. Called on the thread that delivered the RSR (a caller's progress pass or a
 * module's own thread), one RSR at a time per sender; {@code body} is valid only during the call.
 */
@FunctionalInterface
public interface RsrHandler {
    void handle(int sourceRank, ByteBuffer body);
}
