/* Reproducer of the known defect mpich-gather-mixed-type (src/defects/known.txt,
 * docs/defects.md): MPI_Gather on MPI_LONG_INT (a long and an int in 16 bytes: mixed basic
 * types with a gap) returns "Message truncated" on 4 or more ranks once a block holds a few KiB
 * (MPICH 4.0.2, 4 ranks: 343 elements per rank pass, 344 fail). The binomial tree forwards a
 * subtree's blocks as packed bytes, and the root's receive of packed bytes into such a datatype
 * fails (mpich-packed-into-mixed-type.c shows that alone). Found by mpiguide selftest --random,
 * where allgather_as_gather_bcast met it in its inner MPI_Gather.
 *
 *   mpicc repro.c -o repro && mpiexec -n 4 ./repro [ELEMENTS_PER_RANK]
 *
 * Prints "correct" and exits 0, or names the failure and exits 1. Only MPI calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int N = 2000; /* elements per rank: 24,000 bytes of data */

typedef struct {
    long l;
    int i;
} li; /* the layout of MPI_LONG_INT */

int main(int argc, char **argv) {
    int rank, p, wrong = 0, all = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc > 1) N = atoi(argv[1]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    li *mine = calloc((size_t)N, sizeof *mine), *all_blocks = calloc((size_t)N * p, sizeof *mine);
    for (int k = 0; k < N; k++) mine[k] = (li){rank * 1000000L + k, rank};
    int rc = MPI_Gather(mine, N, MPI_LONG_INT, all_blocks, N, MPI_LONG_INT, 0, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, s, &len);
        printf("rank %d: MPI_Gather(MPI_LONG_INT) failed: %.200s\n", rank, s);
        wrong = 1;
    } else if (rank == 0)
        for (int q = 0; q < p; q++)
            for (int k = 0; k < N; k++)
                wrong +=
                    all_blocks[q * N + k].l != q * 1000000L + k || all_blocks[q * N + k].i != q;
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    free(mine);
    free(all_blocks);
    MPI_Finalize();
    return all ? 1 : 0;
}
