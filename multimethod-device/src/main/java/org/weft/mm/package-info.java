/**
 * The multimethod device (after Nexus): each process is a {@link org.weft.mm.Context} with endpoints; a
 * {@link org.weft.mm.Startpoint} carries the target's {@link org.weft.mm.DescriptorTable} and sends remote
 * service requests (RSRs) through the first applicable communication method. MPI point-to-point is one RSR
 * handler, <em>enqueue message</em> ({@link org.weft.mm.proto}).
 */
package org.weft.mm;
