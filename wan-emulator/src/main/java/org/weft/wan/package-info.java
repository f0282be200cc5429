/**
 * A wide-area link emulated in user space: IP packets read from TUN devices (one per site, in a router network
 * namespace made by {@code bin/weft-wan}) are held for a one-way delay, serialised at a rate through a tail-drop
 * queue, dropped at random with a loss probability, and written to the TUN device of the destination site.
 */
package org.weft.wan;
