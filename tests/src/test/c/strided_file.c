/*
 * C twin of org.weft.tests.programs.StridedFile, for FileInteropJobTest: blocks of BLOCK ints dealt round the
 * ranks (rank r's view: a block every size*BLOCK ints, from int r*BLOCK), BLOCKS blocks per rank, each int its
 * global index. "write PATH" writes them with MPI_File_write_all; "read PATH" reads them back with MPI_File_read
 * and prints "rank R read ok" if every int is right.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define BLOCK 3
#define BLOCKS 4

int main(int argc, char **argv) {
    int rank, size, i, k, bad = 0;
    int data[BLOCK * BLOCKS];
    MPI_Datatype block, filetype;
    MPI_File f;
    MPI_Status status;
    int count;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_contiguous(BLOCK, MPI_INT, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint) size * BLOCK * sizeof(int), &filetype);
    MPI_Type_commit(&filetype);
    int writing = strcmp(argv[1], "write") == 0;
    MPI_File_open(MPI_COMM_WORLD, argv[2], writing ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY,
                  MPI_INFO_NULL, &f);
    MPI_File_set_view(f, (MPI_Offset) rank * BLOCK * sizeof(int), MPI_INT, filetype, "native", MPI_INFO_NULL);
    for (k = 0; k < BLOCKS; k++) {
        for (i = 0; i < BLOCK; i++) {
            data[k * BLOCK + i] = writing ? (k * size + rank) * BLOCK + i : -1;
        }
    }
    if (writing) {
        MPI_File_write_all(f, data, BLOCK * BLOCKS, MPI_INT, &status);
    } else {
        MPI_File_read(f, data, BLOCK * BLOCKS, MPI_INT, &status);
        MPI_Get_count(&status, MPI_INT, &count);
        bad = count != BLOCK * BLOCKS;
        for (k = 0; k < BLOCKS; k++) {
            for (i = 0; i < BLOCK; i++) {
                bad |= data[k * BLOCK + i] != (k * size + rank) * BLOCK + i;
            }
        }
        printf("rank %d read %s\n", rank, bad ? "WRONG" : "ok");
    }
    MPI_File_close(&f);
    MPI_Type_free(&filetype);
    MPI_Type_free(&block);
    MPI_Finalize();
    return bad;
}
