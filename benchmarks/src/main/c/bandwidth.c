/* The C twin of org.weft.bench.osu.Bandwidth (osu_bw): rank 0 sends windows of 64 nonblocking messages, rank 1
 * receives them and answers each window with one 4-byte acknowledgement; bandwidth = bytes of the timed windows
 * over their time (MB/s, 10^6 bytes). The same sizes (1 B .. maxBytes), windows (100 below 64 KiB, a fifth from
 * 64 KiB on) and warm-up (a tenth as many untimed windows) as the Java one.
 * Build: mpicc -O2 -o bandwidth bandwidth.c
 * Run:   mpirun -np 2 ./bandwidth [maxBytes] [windows]
 * Prints OSU-style "# Size  Bandwidth (MB/s)" rows. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW 64

int main(int argc, char **argv) {
    int rank;
    long max = argc > 1 ? atol(argv[1]) : 4L << 20;
    int windows = argc > 2 ? atoi(argv[2]) : 100;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = malloc(max > 0 ? max : 1), ack[4] = {0};
    memset(buf, 1, max > 0 ? max : 1);
    MPI_Request requests[WINDOW];
    if (rank == 0) printf("# Open MPI C osu_bw\n# Size       Bandwidth (MB/s)\n");
    for (long size = 1; size <= max; size *= 2) {
        int timed = size < 65536 ? windows : (windows / 5 > 10 ? windows / 5 : 10), warmup = timed / 10;
        double t0 = 0;
        for (int w = 0; w < timed + warmup; w++) {
            if (w == warmup) { MPI_Barrier(MPI_COMM_WORLD); t0 = MPI_Wtime(); }
            for (int j = 0; j < WINDOW; j++) {
                if (rank == 0) MPI_Isend(buf, (int) size, MPI_BYTE, 1, 100, MPI_COMM_WORLD, &requests[j]);
                else MPI_Irecv(buf, (int) size, MPI_BYTE, 0, 100, MPI_COMM_WORLD, &requests[j]);
            }
            MPI_Waitall(WINDOW, requests, MPI_STATUSES_IGNORE);
            if (rank == 0) MPI_Recv(ack, 4, MPI_BYTE, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            else MPI_Send(ack, 4, MPI_BYTE, 0, 101, MPI_COMM_WORLD);
        }
        double seconds = MPI_Wtime() - t0;
        if (rank == 0) printf("%-12ld %15.2f\n", size, (double) size * WINDOW * timed / seconds / 1e6);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
