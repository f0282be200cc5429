/**
 * Measurements across an emulated wide area, run inside its namespaces ({@code bin/weft-wan probe HOST ...}): a TCP
 * ping-pong (round trip), a bulk TCP transfer (rate), a UDP count (loss) and a bare connect (routes).
 */
package org.weft.wan.probe;
