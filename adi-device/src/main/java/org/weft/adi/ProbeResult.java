package org.weft.adi;

/** What {@link Device#iprobe} saw: sender (world rank), tag and size in bytes of a matching message. */
public record ProbeResult(int source, int tag, long byteCount) {
}
