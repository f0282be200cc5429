/**
 * The bootstrap client: how a process meets the others of its job through the launcher's bootstrap
 * service (exchange of descriptor tables, the finalize barrier, abort propagation).
 */
package org.weft.adi.bootstrap;
