/** Diagnostics for people tuning Weft: timestamps of the phases of start-up and shut-down. */
package org.weft.adi.trace;
