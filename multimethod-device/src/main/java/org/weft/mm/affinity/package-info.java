/**
 * Binding a rank to CPUs ({@code weftrun --bind-to core|hwthread}), as Open MPI's {@code mpirun --bind-to} does:
 * each rank of a host takes the next core of the CPUs it may run on, every thread of its JVM bound there.
 */
package org.weft.mm.affinity;
