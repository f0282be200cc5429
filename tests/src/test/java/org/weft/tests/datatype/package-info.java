/** Datatypes chapter: derived types in point-to-point and collectives, pack/unpack, extents, and their hot path. */
package org.weft.tests.datatype;
