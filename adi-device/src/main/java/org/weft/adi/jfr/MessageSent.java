package org.weft.adi.jfr;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** A point-to-point message handed to a method (its first RSR: the whole message, or a rendezvous' RTS). */
@Name("weft.MessageSent")
@Label("Message Sent")
@Description("A message sent: destination, tag, size, the method that carries it and the protocol")
public final class MessageSent extends MessageEvent {
}
