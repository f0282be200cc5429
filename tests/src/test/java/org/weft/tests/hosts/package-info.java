/**
 * Jobs over several hosts ({@code weftrun --host}, sites on other hosts) through a remote shell: the hosts are
 * network namespaces of this machine with addresses of their own, made by {@code bin/weft-netns}.
 */
package org.weft.tests.hosts;
