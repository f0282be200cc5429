/* Reference one-sided latency in C for Weft's benchmarks: the twin of org.weft.bench.osu.PutLatency/GetLatency
 * (OSU's osu_put_latency/osu_get_latency), same sizes and synchronisations.
 * Build: mpicc -O2 -o one-sided one-sided.c
 * Run:   mpirun -np 2 ./one-sided put|get flush|lock|fence [maxBytes]
 * Prints OSU-style "# Size  Latency (us)" rows: the time of one operation with its synchronisation. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void step(int rank, int put, const char *sync, char *buf, long size, MPI_Win win) {
    if (rank == 0) {
        if (!strcmp(sync, "lock")) MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        if (put) MPI_Put(buf, (int) size, MPI_BYTE, 1, 0, (int) size, MPI_BYTE, win);
        else MPI_Get(buf, (int) size, MPI_BYTE, 1, 0, (int) size, MPI_BYTE, win);
        if (!strcmp(sync, "lock")) MPI_Win_unlock(1, win);
        else if (!strcmp(sync, "flush")) MPI_Win_flush(1, win);
    }
    if (!strcmp(sync, "fence")) MPI_Win_fence(0, win);
}

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    if (argc < 3) {
        fprintf(stderr, "usage: one-sided put|get flush|lock|fence [maxBytes]\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int put = !strcmp(argv[1], "put");
    const char *sync = argv[2];
    long max = argc > 3 ? atol(argv[3]) : 4L << 20;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = malloc(max), *base;
    memset(buf, 1, max);
    MPI_Win win;
    MPI_Win_allocate(max, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    if (rank == 0) printf("# C %s latency (%s)\n# Size          Latency (us)\n", put ? "put" : "get", sync);
    for (long size = 1; size <= max; size *= 2) {
        int iters = size < 65536 ? 10000 : 200, warmup = iters / 10;
        double t0 = 0, t = 0;
        if (!strcmp(sync, "flush") && rank == 0) MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        if (!strcmp(sync, "fence")) MPI_Win_fence(0, win);
        if (rank == 0 || !strcmp(sync, "fence")) {
            for (int i = 0; i < iters + warmup; i++) {
                if (i == warmup) { MPI_Barrier(MPI_COMM_WORLD); t0 = MPI_Wtime(); }
                step(rank, put, sync, buf, size, win);
            }
            t = MPI_Wtime() - t0;
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
        }
        if (!strcmp(sync, "flush") && rank == 0) MPI_Win_unlock(1, win);
        if (!strcmp(sync, "fence")) MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) printf("%-15ld %-15.2f\n", size, t / iters * 1e6);
    }
    MPI_Win_free(&win);
    free(buf);
    MPI_Finalize();
    return 0;
}
