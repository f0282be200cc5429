/*
 * The C reference for Weft's OSU-style collective benchmarks (org.weft.bench.osu.Bcast, Allreduce, Alltoall,
 * Allgather, Gather, Scatter, Reduce, Barrier, ReduceScatterBlock, and the nonblocking Iallreduce, Ibarrier, Ireduce,
 * IreduceScatterBlock, Ibcast, Iallgather, Ialltoall, Igather, Iscatter: each call started and waited for at once):
 * the same sizes, warm-up and output (per size the average over ranks of each rank's mean microseconds per call;
 * barrier: one row, size 0).
 * Build: mpicc -O2 -o collectives collectives.c
 * Run:   mpirun -np 4 --oversubscribe ./collectives bcast|allreduce|alltoall|allgather|gather|scatter|reduce
 *          |barrier|reduce_scatter_block|iallreduce|ibarrier|ireduce|ireduce_scatter_block|ibcast
 *          |iallgather|ialltoall|igather|iscatter [maxBytes] [iterations]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *names[] = {"bcast", "allreduce", "alltoall", "allgather", "gather", "scatter", "reduce", "barrier",
                              "reduce_scatter_block", "iallreduce", "ibarrier", "ireduce", "ireduce_scatter_block",
                              "ibcast", "iallgather", "ialltoall", "igather", "iscatter"};
static int op;  /* index in names */
static char *sendbuf, *recvbuf;

static void call(int bytes) {
    MPI_Request request;
    if (op >= 9) {
        if (op == 9) {
            MPI_Iallreduce(sendbuf, recvbuf, bytes / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &request);
        } else if (op == 10) {
            MPI_Ibarrier(MPI_COMM_WORLD, &request);
        } else if (op == 11) {
            MPI_Ireduce(sendbuf, recvbuf, bytes / 4, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD, &request);
        } else if (op == 12) {
            MPI_Ireduce_scatter_block(sendbuf, recvbuf, bytes / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD, &request);
        } else if (op == 13) {
            MPI_Ibcast(sendbuf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD, &request);
        } else if (op == 14) {
            MPI_Iallgather(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, MPI_COMM_WORLD, &request);
        } else if (op == 15) {
            MPI_Ialltoall(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, MPI_COMM_WORLD, &request);
        } else if (op == 16) {
            MPI_Igather(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD, &request);
        } else {
            MPI_Iscatter(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD, &request);
        }
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else if (op == 0) {
        MPI_Bcast(sendbuf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (op == 1) {
        MPI_Allreduce(sendbuf, recvbuf, bytes / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    } else if (op == 2) {
        MPI_Alltoall(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, MPI_COMM_WORLD);
    } else if (op == 3) {
        MPI_Allgather(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, MPI_COMM_WORLD);
    } else if (op == 4) {
        MPI_Gather(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (op == 5) {
        MPI_Scatter(sendbuf, bytes, MPI_BYTE, recvbuf, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    } else if (op == 6) {
        MPI_Reduce(sendbuf, recvbuf, bytes / 4, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
    } else if (op == 7) {
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Reduce_scatter_block(sendbuf, recvbuf, bytes / 4, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    }
}

/* The size after b: the next power of two (1 after 0). */
static int next(int b) {
    return b == 0 ? 1 : 2 * b;
}

/* Mean microseconds per call over iterations calls, after a fifth as many untimed ones and a barrier (as the Java
 * side's OSU-style skip). */
static double time_calls(int bytes, int iterations) {
    for (int i = 0; i < iterations / 5; i++) {
        call(bytes);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int i = 0; i < iterations; i++) {
        call(bytes);
    }
    return (MPI_Wtime() - start) / iterations * 1e6;
}

/* Every size timed and its mean (the average over ranks) reduced to rank 0, which prints it if print. */
static void measure_sizes(int min, int max, int iterations, int size, int rank, int print) {
    for (int b = min; b <= max; b = next(b)) {
        double us = time_calls(b, b < 65536 ? iterations : (iterations / 10 > 10 ? iterations / 10 : 10)), sum;
        MPI_Reduce(&us, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0 && print) {
            printf("%-12d %15.2f\n", b, sum / size);
        }
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    op = 0;
    for (int i = 0; argc > 1 && i < (int) (sizeof names / sizeof names[0]); i++) {
        if (strcmp(argv[1], names[i]) == 0) {
            op = i;
        }
    }
    int barrier = op == 7 || op == 10;
    int reduction = op == 1 || op == 6 || op == 8 || op == 9 || op == 11 || op == 12;
    int max = barrier ? 0 : argc > 2 ? atoi(argv[2]) : 1 << 20;
    int iterations = argc > 3 ? atoi(argv[3]) : 1000;
    int min = barrier ? 0 : reduction ? 4 : 1;
    size_t bytes = (size_t) (max > 0 ? max : 1) * ((op >= 2 && op <= 5) || op == 8 || op == 12 || op >= 14 ? size : 1);
    sendbuf = calloc(bytes, 1);
    recvbuf = calloc(bytes, 1);
    double warm_up = argc > 4 ? atof(argv[4]) : 1.0, start = MPI_Wtime();
    for (int again = 1; again;) {
        time_calls(min, 5 * iterations);
        measure_sizes(min, max, iterations, size, rank, 0);
        time_calls(min, 2 * iterations);
        again = MPI_Wtime() - start < warm_up;
        MPI_Bcast(&again, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (rank == 0) {
        printf("# Open MPI C %s, %d ranks\n# Size       Avg Latency(us)\n", names[op], size);
    }
    measure_sizes(min, max, iterations, size, rank, 1);
    free(sendbuf);
    free(recvbuf);
    MPI_Finalize();
    return 0;
}
