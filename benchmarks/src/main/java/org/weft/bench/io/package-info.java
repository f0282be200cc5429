/** MPI-IO benchmarks: collective writes through strided views, for comparison with dd on the same file system. */
package org.weft.bench.io;
