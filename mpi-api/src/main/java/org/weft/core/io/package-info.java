/**
 * MPI-IO (MPI chapter 13) over ordinary files that every rank sees: opening with access modes, views that map a
 * file's bytes to a stream of etypes, independent and collective (two-phase) reads and writes through
 * {@code FileChannel} positional calls, and shared file pointers kept in a locked side file.
 */
package org.weft.core.io;
