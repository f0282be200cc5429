/**
 * Two-level collectives of a communicator that spans several sites or hosts (PACX-MPI, MPICH-G2's multilevel
 * collectives, MPICH's node and node-roots communicators): each group's part runs as a collective of an internal
 * communicator of the group, so it takes the group's own fast path (the shared segment, the site's native MPI), and
 * the groups meet through an internal communicator of their leaders.
 */
package org.weft.core.coll.level;
