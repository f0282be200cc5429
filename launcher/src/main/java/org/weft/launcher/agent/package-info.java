/** Process agents: how a rank's process is started (today: a child JVM on this host). */
package org.weft.launcher.agent;
