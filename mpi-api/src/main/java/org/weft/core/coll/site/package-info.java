/**
 * Collectives of a communicator wholly inside one native site, run as the site's own MPI's (PACX-MPI's and
 * MPICH-G2's way) on a native communicator of its members, which the device offers ({@code NativeCollectives}).
 */
package org.weft.core.coll.site;
