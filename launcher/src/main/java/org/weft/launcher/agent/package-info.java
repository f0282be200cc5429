/**
 * Process agents: how a rank's process is started — a child JVM (or a native site's {@code mpirun}) on this host,
 * or the same through a remote shell ({@code ssh}, or any program with its contract) on another host.
 */
package org.weft.launcher.agent;
