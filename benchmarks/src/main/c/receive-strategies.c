/*
 * How a polling receiver should take messages from Open MPI (the nativempi module's choice, measured in C):
 * ping-pong of 8 bytes on a duplicated communicator, ANY_SOURCE, one tag, the receiver either
 *   mode 0: MPI_Recv (blocking; Open MPI spins inside),
 *   mode 1: spins on MPI_Improbe, then MPI_Get_count and MPI_Mrecv (what nativempi does today),
 *   mode 2: posts MPI_Irecv, then spins on MPI_Test (a ring of pre-posted receives).
 * Build: mpicc -O2 -o receive-strategies receive-strategies.c
 * Run:   mpirun -np 2 --bind-to none ./receive-strategies THREAD_LEVEL(2|3) MODE(0|1|2)
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int provided; MPI_Init_thread(&argc, &argv, atoi(argv[1]), &provided);
    int mode = atoi(argv[2]); /* 0 send/recv, 1 send + improbe/mrecv spin, 2 send + preposted irecv/test spin */
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm comm; MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    char sbuf[64] = {0}, rbuf[4096];
    int peer = 1 - rank, n = 200000, len = 8;
    double t0 = 0;
    for (int i = 0; i < n + 1000; i++) {
        if (i == 1000) { MPI_Barrier(comm); t0 = MPI_Wtime(); }
        for (int turn = 0; turn < 2; turn++) {
            if ((turn == 0) == (rank == 0)) {
                MPI_Send(sbuf, len, MPI_BYTE, peer, 7, comm);
            } else if (mode == 0) {
                MPI_Recv(rbuf, sizeof rbuf, MPI_BYTE, MPI_ANY_SOURCE, 7, comm, MPI_STATUS_IGNORE);
            } else if (mode == 1) {
                int flag = 0; MPI_Message m; MPI_Status st; int count;
                while (!flag) MPI_Improbe(MPI_ANY_SOURCE, 7, comm, &flag, &m, &st);
                MPI_Get_count(&st, MPI_BYTE, &count);
                MPI_Mrecv(rbuf, count, MPI_BYTE, &m, &st);
            } else {
                MPI_Request r; int flag = 0;
                MPI_Irecv(rbuf, sizeof rbuf, MPI_BYTE, MPI_ANY_SOURCE, 7, comm, &r);
                while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            }
        }
    }
    if (rank == 0) printf("thread %d mode %d one-way %.3f us\n", provided, mode, (MPI_Wtime() - t0) / n / 2 * 1e6);
    MPI_Finalize();
    return 0;
}
