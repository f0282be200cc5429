/**
 * Benchmarks of Weft's own software path, without the cost of moving data between cores: what a send and a receive
 * cost the calling thread, to be set against a ping-pong's one-way latency (which adds the cache-line transfers).
 */
package org.weft.bench.path;
