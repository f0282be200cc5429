package org.weft.adi.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A point-to-point message arrived (its first RSR), matched to a posted receive or queued as unexpected. */
@Name("weft.MessageReceived")
@Label("Message Received")
@Description("A message arrived: source, tag, size, the method that carried it, and whether a receive was waiting")
public final class MessageReceived extends MessageEvent {
    @Label("Expected")
    @Description("Whether a posted receive was waiting for it (else it waits in the unexpected queue)")
    public boolean expected;
}
