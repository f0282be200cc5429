/** Idle strategies: what a waiting thread does when a progress pass found no work. */
package org.weft.adi.idle;
