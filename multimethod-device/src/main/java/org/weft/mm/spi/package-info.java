/**
 * The communication-module SPI (after Nexus's protocol modules and Open MPI's BTLs): what a method such as
 * {@code self}, {@code shm}, {@code nativempi} or {@code tcp} implements to move remote service requests.
 * Modules know nothing of MPI.
 */
package org.weft.mm.spi;
