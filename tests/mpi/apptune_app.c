/* An "application" for the end-to-end test of tuning for an application (apptune_e2e.sh): it
 * knows nothing of mpiguide and calls MPI_Allreduce and MPI_Bcast on MPI_DOUBLE (MPI_SUM) at
 * irregular sizes (24 B, 3000 B, 200 KiB) on MPI_COMM_WORLD and on a split of half its size,
 * checking every result. Prints "apptune_app: N passed, M failed" on rank 0.
 * usage: apptune_app [ITERATIONS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int npass, nfail;

static void check(int ok) {
    if (ok)
        npass++;
    else
        nfail++;
}

static void run(MPI_Comm comm, int iterations, double *s, double *d) {
    static const int counts[] = {3, 375, 25600}; /* 24 B, 3000 B, 200 KiB of doubles */
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    for (int it = 0; it < iterations; it++)
        for (int k = 0; k < 3; k++) {
            int c = counts[k];
            for (int i = 0; i < c; i++) s[i] = r + 1 + i % 7;
            MPI_Allreduce(s, d, c, MPI_DOUBLE, MPI_SUM, comm);
            int ok = 1;
            for (int i = 0; i < c; i++) ok &= d[i] == p * (p + 1) / 2.0 + p * (double)(i % 7);
            check(ok);
            int root = it % p;
            for (int i = 0; i < c; i++) d[i] = r == root ? i + 0.5 : -1;
            MPI_Bcast(d, c, MPI_DOUBLE, root, comm);
            ok = 1;
            for (int i = 0; i < c; i++) ok &= d[i] == i + 0.5;
            check(ok);
        }
}

int main(int argc, char **argv) {
    int rank, p, iterations = argc > 1 ? atoi(argv[1]) : 10;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    double *s = malloc(25600 * sizeof *s), *d = malloc(25600 * sizeof *d);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank < p / 2, rank, &half);
    run(MPI_COMM_WORLD, iterations, s, d);
    run(half, iterations, s, d);
    MPI_Comm_free(&half);
    int local[2] = {npass, nfail}, total[2];
    /* the tally is the test's, not the application's: kept out of the record */
    PMPI_Reduce(local, total, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("apptune_app: %d passed, %d failed\n", total[0], total[1]);
    free(s);
    free(d);
    MPI_Finalize();
    return rank == 0 && total[1] ? 1 : 0;
}
