/**
 * This host's network addresses as a job spanning hosts needs them: which to advertise to peers, and which of a
 * peer's advertised addresses to dial first.
 */
package org.weft.adi.net;
