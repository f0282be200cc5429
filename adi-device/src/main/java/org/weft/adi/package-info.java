/**
 * The abstract device interface (after MPICH's ADI): the contract between the device-independent MPI
 * layer above and a device below. Contracts only: {@link org.weft.adi.Device}, its requests and
 * statuses, the world a process lives in, error classes, declared parameters, idle strategies and
 * the bootstrap client.
 */
package org.weft.adi;
