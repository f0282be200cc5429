/** Collective algorithms, one class per algorithm. */
package org.weft.core.coll.algo;
