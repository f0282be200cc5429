/** Datatype descriptors and the mapping of Java arrays and NIO buffers to contiguous memory segments. */
package org.weft.core.datatype;
