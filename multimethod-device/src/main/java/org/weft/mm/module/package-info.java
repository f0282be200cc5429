/** The communication modules, one package each: self, tcp (and later shm, nativempi, relay). */
package org.weft.mm.module;
