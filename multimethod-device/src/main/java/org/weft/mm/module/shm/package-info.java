/** The {@code shm} method: memory-mapped single-producer rings between the processes of one host and one job. */
package org.weft.mm.module.shm;
