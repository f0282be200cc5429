/** MPI-IO (MPI chapter 13): files, access modes, views, explicit offsets, file pointers and collective I/O. */
package org.weft.tests.io;
