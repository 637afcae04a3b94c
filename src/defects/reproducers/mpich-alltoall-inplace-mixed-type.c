/* Reproducer of the known defect mpich-alltoall-inplace-mixed-type (src/defects/known.txt,
 * docs/defects.md): MPI_Alltoall with MPI_IN_PLACE on a datatype of mixed basic types with a
 * gap (here MPI_DOUBLE_INT: a double and an int in 16 bytes) fails with "Message truncated"
 * once a block holds more than about 8 KiB of data (MPICH 4.0.2: 680 elements of 12 bytes
 * pass, 690 fail). MPICH exchanges in-place blocks through packed buffers, and its receive of
 * packed bytes into such a datatype fails (mpich-packed-into-mixed-type.c shows that alone).
 * Found by mpiguide selftest --random.
 *
 *   mpicc repro.c -o repro && mpiexec -n 2 ./repro [ELEMENTS_PER_BLOCK]
 *
 * Prints "correct" and exits 0, or names the failure and exits 1. Only MPI calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int N = 2000; /* elements per block: 24,000 bytes of data */

typedef struct {
    double d;
    int i;
} di; /* the layout of MPI_DOUBLE_INT */

static int rank, p;

static int failed(int rc, const char *what) {
    if (rc == MPI_SUCCESS) return 0;
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, s, &len);
    printf("rank %d: %s failed: %.200s\n", rank, what, s);
    return 1;
}

int main(int argc, char **argv) {
    int wrong = 0, all = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (argc > 1) N = atoi(argv[1]);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    di *v = calloc((size_t)N * (size_t)p, sizeof *v);
    /* 1. in-place Alltoall: block q of rank r holds (r, q, k) */
    for (int q = 0; q < p; q++)
        for (int k = 0; k < N; k++) v[q * N + k] = (di){rank * 1e6 + q * 1e4 + k, rank};
    if (failed(
            MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, N, MPI_DOUBLE_INT, MPI_COMM_WORLD),
            "MPI_Alltoall(MPI_IN_PLACE, MPI_DOUBLE_INT)"))
        wrong++;
    else
        for (int q = 0; q < p; q++)
            for (int k = 0; k < N; k++)
                wrong += v[q * N + k].d != q * 1e6 + rank * 1e4 + k || v[q * N + k].i != q;
    MPI_Allreduce(&wrong, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s (%d wrong elements)\n", all ? "WRONG" : "correct", all);
    free(v);
    MPI_Finalize();
    return all ? 1 : 0;
}
