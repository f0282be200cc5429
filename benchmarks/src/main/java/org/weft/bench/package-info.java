/** Weft's benchmark suite: OSU/mpptest-style MPI benchmarks, RSR-level (nexus), path costs and JMH ones. */
package org.weft.bench;
