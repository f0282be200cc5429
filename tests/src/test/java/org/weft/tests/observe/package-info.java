/**
 * Observing a job: {@code weftrun --jfr} records every rank with Weft's Flight Recorder events, read back with
 * {@code jdk.jfr.consumer.RecordingFile}.
 */
package org.weft.tests.observe;
