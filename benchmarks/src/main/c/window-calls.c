/* Reference for Weft's org.weft.bench.path.WindowCalls: the software cost of one-sided calls on a window of one
 * process (MPI_COMM_SELF, MPI_Win_allocate), so no data crosses cores: 8-byte put + flush, get + flush,
 * lock + put + unlock, fence alone; ns per row, the median and the least of the timed rounds after warm-up rounds.
 * Build: mpicc -O2 -o window-calls window-calls.c
 * Run:   mpirun -np 1 ./window-calls [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 15
#define WARM_UP_ROUNDS 3

static double nanos(MPI_Win win, char *local, int row, long iterations) {
    if (row < 2) MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    else if (row == 3) MPI_Win_fence(0, win);
    double start = MPI_Wtime();
    for (long i = 0; i < iterations; i++) {
        switch (row) {
            case 0: MPI_Put(local, 8, MPI_BYTE, 0, 0, 8, MPI_BYTE, win); MPI_Win_flush(0, win); break;
            case 1: MPI_Get(local, 8, MPI_BYTE, 0, 0, 8, MPI_BYTE, win); MPI_Win_flush(0, win); break;
            case 2:
                MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
                MPI_Put(local, 8, MPI_BYTE, 0, 0, 8, MPI_BYTE, win);
                MPI_Win_unlock(0, win);
                break;
            default: MPI_Win_fence(0, win);
        }
    }
    double elapsed = MPI_Wtime() - start;
    if (row < 2) MPI_Win_unlock(0, win);
    else if (row == 3) MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    return elapsed * 1e9 / iterations;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    static const char *rows[] = {"put+flush", "get+flush", "lock+put+unlock", "fence"};
    MPI_Init(&argc, &argv);
    long iterations = argc > 1 ? atol(argv[1]) : 200000;
    char local[8] = {1}, *base;
    MPI_Win win;
    MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_SELF, &base, &win);
    printf("# C one-sided calls on a window of one process\n# %-16s %12s %12s\n", "Row", "median ns", "least ns");
    for (int row = 0; row < 4; row++) {
        double ns[ROUNDS];
        for (int round = -WARM_UP_ROUNDS; round < ROUNDS; round++) {
            double n = nanos(win, local, row, iterations);
            if (round >= 0) ns[round] = n;
        }
        qsort(ns, ROUNDS, sizeof ns[0], compare);
        printf("%-18s %12.1f %12.1f\n", rows[row], ns[ROUNDS / 2], ns[0]);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
