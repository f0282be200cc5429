/* Open MPI's C twin of org.weft.bench.path.SelfSendRecv (weft bench selfcost): each rank sends BYTES (default 0) to
 * itself and receives them, ITERATIONS times (default 3000000), five rounds; rank 0 prints the median nanoseconds
 * per send+recv: the software cost of a message with no cross-core traffic.
 * Build: mpicc -O2 -o self-sendrecv self-sendrecv.c    Run: mpirun -np 2 ./self-sendrecv [BYTES [ITERATIONS]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 5

static int compare(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rank;
    int bytes = argc > 1 ? atoi(argv[1]) : 0;
    int iterations = argc > 2 ? atoi(argv[2]) : 3000000;
    double nanos[ROUNDS];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *out = calloc(bytes > 0 ? bytes : 1, 1), *in = calloc(bytes > 0 ? bytes : 1, 1);
    for (int round = -1; round < ROUNDS; round++) { /* round -1 warms up */
        double start = MPI_Wtime();
        for (int i = 0; i < iterations; i++) {
            MPI_Send(out, bytes, MPI_BYTE, rank, 1, MPI_COMM_WORLD);
            MPI_Recv(in, bytes, MPI_BYTE, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (round >= 0) {
            nanos[round] = (MPI_Wtime() - start) * 1e9 / iterations;
        }
    }
    qsort(nanos, ROUNDS, sizeof(double), compare);
    if (rank == 0) {
        printf("self %d B %.1f ns per send+recv\n", bytes, nanos[ROUNDS / 2]);
    }
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
