/**
 * OSU-style MPI benchmarks written against the {@code mpi} API only, so the same class also runs under Open MPI's
 * Java bindings for side-by-side figures. Output columns follow the OSU micro-benchmarks.
 */
package org.weft.bench.osu;
