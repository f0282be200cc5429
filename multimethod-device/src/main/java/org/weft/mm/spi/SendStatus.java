package org.weft.mm.spi;

/** The outcome of {@link CommObject#send}: back-pressure is a value, not an exception (STYLE.md #8). */
public enum SendStatus {
    /** Taken: the caller's buffers are free again. */
    SENT,
    /** Nothing taken now (buffers full); retry from the per-peer pending queue. */
    BACK_PRESSURED,
    /** The link is broken (the peer died or closed it). */
    FAILED
}
