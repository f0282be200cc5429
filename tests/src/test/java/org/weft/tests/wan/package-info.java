/**
 * The emulated wide area ({@code bin/weft-wan}): sites of network namespaces joined only through Weft's link
 * emulator, measured from inside them (round trip, rate, loss, routes), and a job run across it.
 */
package org.weft.tests.wan;
