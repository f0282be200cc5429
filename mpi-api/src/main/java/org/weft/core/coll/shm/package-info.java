/**
 * Collectives through memory shared by every member of a communicator on one host (Open MPI's {@code coll/sm},
 * MPICH's release-gather): a segment per communicator with a flag line per rank and slots that ranks copy their
 * data into and out of (small rooted data: many small ahead slots, so its writers run far ahead of its readers),
 * instead of point-to-point rounds. The barrier, reduce, allreduce and reduce_scatter_block of up to one slot, and
 * bcast, allgather, gather, scatter and alltoall of any size, blocking or not, and the blocking reductions of any
 * larger size (in chunks), take it when every member is reached through shm; everything else keeps the schedules.
 */
package org.weft.core.coll.shm;
