/* Reference ping-pong in C for Weft's benchmarks: same sizes and method as org.weft.bench.osu.Latency, so the
 * two can be run interleaved and compared as ratios.  Build: mpicc -O2 -o pingpong pingpong.c
 * Run:   mpirun -np 2 [--mca btl tcp,self] ./pingpong [maxBytes] [iterations]
 * (iterations: 10000 by default, below 64 KiB; from 64 KiB on a fiftieth of them, at least 100, as Latency's -i)
 * Prints OSU-style "# Size  Latency (us)  Bandwidth (MB/s)" rows: one-way latency = round trip / 2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank;
    long max = argc > 1 ? atol(argv[1]) : 4L << 20;
    int iterations = argc > 2 ? atoi(argv[2]) : 10000;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = malloc(max > 0 ? max : 1);
    memset(buf, 1, max > 0 ? max : 1);
    if (rank == 0) printf("# Size          Latency (us)    Bandwidth (MB/s)\n");
    for (long size = 0; size <= max; size = size == 0 ? 1 : size * 2) {
        int iters = size < 65536 ? iterations : (iterations / 50 > 100 ? iterations / 50 : 100), warmup = iters / 10;
        double t0 = 0;
        for (int i = 0; i < iters + warmup; i++) {
            if (i == warmup) { MPI_Barrier(MPI_COMM_WORLD); t0 = MPI_Wtime(); }
            if (rank == 0) {
                MPI_Send(buf, (int) size, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, (int) size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, (int) size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, (int) size, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        double oneway = (MPI_Wtime() - t0) / iters / 2;
        if (rank == 0) printf("%-15ld %-15.2f %.2f\n", size, oneway * 1e6, size / oneway / 1e6);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
