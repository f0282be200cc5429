package org.weft.adi;

/**
 * A message taken out of matching by a matched probe ({@code MPI_Mprobe}); it can be received only through
 * {@link Device#imrecv}. The device subclasses it to hold the message's data or rendezvous state.
 */
public abstract class DeviceMessage {
    /** Sender's world rank. */
    public abstract int source();

    public abstract int tag();

    /** Size of the message in bytes. */
    public abstract long byteCount();
}
