/* Open MPI's C twin of org.weft.bench.path.WarmUp: a blocking ping-pong of BYTES (default 1 MiB) from right after
 * MPI_Init, in windows of WINDOW_MS (default 300), WINDOWS of them (default 10); rank 0 prints the same lines.
 * Build: mpicc -O2 -o warm-up warm-up.c    Run: mpirun -np 2 ./warm-up [BYTES [WINDOW_MS [WINDOWS]]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define GO 1
#define STOP 2

static int compare(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rank;
    MPI_Init(&argc, &argv);
    double start = MPI_Wtime();
    int bytes = argc > 1 ? atoi(argv[1]) : 1 << 20;
    double window_s = (argc > 2 ? atoi(argv[2]) : 300) / 1e3;
    int windows = argc > 3 ? atoi(argv[3]) : 10;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buffer = calloc(bytes > 0 ? bytes : 1, 1);
    double *one_way = calloc(windows, sizeof(double));
    if (rank == 0) {
        double window_start = start;
        long round_trips = 0;
        for (int w = 0; w < windows;) {
            MPI_Send(buffer, bytes, MPI_BYTE, 1, GO, MPI_COMM_WORLD);
            MPI_Recv(buffer, bytes, MPI_BYTE, 1, GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            round_trips++;
            double now = MPI_Wtime();
            if (now - start >= (w + 1) * window_s) {
                one_way[w++] = (now - window_start) * 1e6 / round_trips / 2;
                window_start = now;
                round_trips = 0;
            }
        }
        MPI_Send(buffer, 0, MPI_BYTE, 1, STOP, MPI_COMM_WORLD);
        for (int w = 0; w < windows; w++) {
            printf("window %d %.1f-%.1f s one-way %.3f us %.2f GB/s\n", w + 1, w * window_s, (w + 1) * window_s,
                   one_way[w], bytes / one_way[w] / 1e3);
        }
        int half = windows / 2, n = windows - half;
        qsort(one_way + half, n, sizeof(double), compare);
        double steady = one_way[half + n / 2];
        printf("warm-up %d B first %.3f us steady %.3f us first/steady %.2f\n", bytes, one_way[0], steady,
               one_way[0] / steady);
    } else {
        MPI_Status status;
        for (;;) {
            MPI_Recv(buffer, bytes, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
            if (status.MPI_TAG == STOP) {
                break;
            }
            MPI_Send(buffer, bytes, MPI_BYTE, 0, GO, MPI_COMM_WORLD);
        }
    }
    free(one_way);
    free(buffer);
    MPI_Finalize();
    return 0;
}
