/** Point-to-point operations: argument checks, send modes, the buffered-send buffer. */
package org.weft.core.p2p;
