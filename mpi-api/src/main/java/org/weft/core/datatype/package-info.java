/** The datatype engine: type descriptors flattened to typemaps, type constructors, and pack/unpack of user buffers to the segments the device moves. */
package org.weft.core.datatype;
