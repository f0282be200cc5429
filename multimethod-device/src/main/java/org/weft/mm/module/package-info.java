/**
 * The communication modules, one package per method ({@code self}, {@code shm}, {@code nativempi}, {@code tcp},
 * {@code relay}), each implementing the {@link org.weft.mm.spi.CommModule} SPI and nothing of MPI.
 */
package org.weft.mm.module;
