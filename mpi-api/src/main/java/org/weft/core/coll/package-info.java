/** Collective operations built on point-to-point in a communicator's collective context. */
package org.weft.core.coll;
