/** Forwarding of the ranks' stdout, stderr (line by line, optionally tagged) and of stdin to rank 0. */
package org.weft.launcher.io;
