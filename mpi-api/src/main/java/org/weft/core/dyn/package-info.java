/**
 * Dynamic processes (MPI 4.1 chapter 11) in the core layer: spawn and the parent intercommunicator, ports with
 * accept and connect, names; all build intercommunicators between groups of different worlds, whose leaders meet
 * over a two-process bridge and then agree on context ids as {@code MPI_Intercomm_create} does.
 */
package org.weft.core.dyn;
