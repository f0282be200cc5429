/** The progress engine: bounded, fair polling of the modules, idle strategies and waking parked waiters. */
package org.weft.mm.progress;
