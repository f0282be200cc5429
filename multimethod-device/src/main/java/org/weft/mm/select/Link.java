package org.weft.mm.select;

import org.weft.mm.spi.CommModule;
import org.weft.mm.spi.CommObject;

/** The method chosen for one peer: the module and its communication object to that peer. */
public record Link(CommModule module, CommObject object) {
}
