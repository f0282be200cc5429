/**
 * Collectives through memory shared by every member of a communicator on one host (Open MPI's {@code coll/sm},
 * MPICH's release-gather): a segment per communicator with a flag line per rank and slots that ranks copy their
 * data into and out of, instead of point-to-point rounds. The blocking barrier, reduce and allreduce of up to one
 * slot, and bcast, allgather, gather, scatter and alltoall of any size, take it when every member is reached
 * through shm; everything else keeps the schedules.
 */
package org.weft.core.coll.shm;
