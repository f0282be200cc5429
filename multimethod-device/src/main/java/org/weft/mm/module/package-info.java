/**
 * The communication modules, one package each (self, shm, nativempi, tcp), and what more than one of them uses.
 */
package org.weft.mm.module;
