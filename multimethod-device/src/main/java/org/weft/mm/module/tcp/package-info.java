/**
 * The {@code tcp} method on Netty: one initiated connection per peer for sending, accepted connections for
 * receiving, each proving the job's secret in a HELLO frame before any RSR it carries is delivered.
 */
package org.weft.mm.module.tcp;
