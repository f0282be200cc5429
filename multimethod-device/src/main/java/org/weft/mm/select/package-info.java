/** The selection policy: per peer, the first applicable method in table order, decided once and cached. */
package org.weft.mm.select;
