/** Weft's benchmark suite: OSU/mpptest-style MPI benchmarks and, later, RSR-level and JMH ones. */
package org.weft.bench;
