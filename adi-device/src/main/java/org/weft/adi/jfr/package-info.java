/**
 * Weft's JDK Flight Recorder events (messages sent and received, collectives, rendezvous, back-pressure waits),
 * emitted only when parameter {@code jfr} is 1 ({@link org.weft.adi.jfr.Jfr#ON}; {@code weftrun --jfr} sets
 * it and records every rank), so that JDK Mission Control shows a job's traffic. Off, a call site costs a static
 * final load the JIT folds away, and no event or JFR class is loaded.
 */
package org.weft.adi.jfr;
