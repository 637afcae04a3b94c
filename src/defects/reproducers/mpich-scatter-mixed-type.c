/* Reproducer of the known defect mpich-scatter-mixed-type (src/defects/known.txt,
 * docs/defects.md): MPI_Scatter on MPI_LONG_INT (a long and an int in 16 bytes: mixed basic
 * types with a gap) returns "Message truncated" once a block holds more than about 8 KiB (MPICH
 * 4.0.2: 686 elements pass, 688 fail), on 4 or more ranks, and on any number of ranks with a
 * root other than 0 (here the last rank). The binomial tree hands blocks on as packed bytes,
 * and a rank's receive of packed bytes into such a datatype fails
 * (mpich-packed-into-mixed-type.c shows that alone). Found by mpiguide selftest --random.
 *
 *   mpicc repro.c -o repro && mpiexec -n 2 ./repro [ELEMENTS_PER_RANK]
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
    li *blocks = calloc((size_t)N * p, sizeof *blocks), *mine = calloc((size_t)N, sizeof *mine);
    int root = p - 1;
    if (rank == root)
        for (int q = 0; q < p; q++)
            for (int k = 0; k < N; k++) blocks[q * N + k] = (li){q * 1000000L + k, q};
    int rc = MPI_Scatter(blocks, N, MPI_LONG_INT, mine, N, MPI_LONG_INT, root, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, s, &len);
        printf("rank %d: MPI_Scatter(MPI_LONG_INT) failed: %.200s\n", rank, s);
        wrong = 1;
    } else
        for (int k = 0; k < N; k++) wrong += mine[k].l != rank * 1000000L + k || mine[k].i != rank;
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    free(blocks);
    free(mine);
    MPI_Finalize();
    return all ? 1 : 0;
}
