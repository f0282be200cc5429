/* Open MPI's C twin of org.weft.bench.path.SteadyLatency: a blocking ping-pong of BYTES (default 0), 30 windows of
 * ITERATIONS round trips (default 100000), printing the median one-way of the last 20 windows in the same line.
 * Build: mpicc -O2 -o steady-latency steady-latency.c    Run: mpirun -np 2 ./steady-latency [BYTES [ITERATIONS]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define WINDOWS 30
#define WARM_UP_WINDOWS 10

static int compare(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rank;
    int bytes = argc > 1 ? atoi(argv[1]) : 0;
    int iterations = argc > 2 ? atoi(argv[2]) : 100000;
    double one_way[WINDOWS], steady[WINDOWS - WARM_UP_WINDOWS];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buffer = calloc(bytes > 0 ? bytes : 1, 1);
    for (int window = 0; window < WINDOWS; window++) {
        double start = MPI_Wtime();
        for (int i = 0; i < iterations; i++) {
            if (rank == 0) {
                MPI_Send(buffer, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buffer, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buffer, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buffer, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        one_way[window] = (MPI_Wtime() - start) * 1e6 / iterations / 2;
    }
    if (rank == 0) {
        for (int w = WARM_UP_WINDOWS; w < WINDOWS; w++) {
            steady[w - WARM_UP_WINDOWS] = one_way[w];
        }
        qsort(steady, WINDOWS - WARM_UP_WINDOWS, sizeof(double), compare);
        int n = WINDOWS - WARM_UP_WINDOWS;
        printf("steady %d B one-way %.3f us (windows", bytes, (steady[n / 2 - 1] + steady[n / 2]) / 2);
        for (int w = 0; w < WINDOWS; w++) {
            printf(" %.3f", one_way[w]);
        }
        printf(")\n");
    }
    free(buffer);
    MPI_Finalize();
    return 0;
}
