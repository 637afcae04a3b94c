/* An ordinary MPI program for the tests of the guard (tests/mpi/intercept_guard.cmake), built
 * without any link to mpiguide: N rounds of MPI_Allreduce (sum of ints) and MPI_Bcast (a root
 * that moves) on one message size, each result checked, on MPI_COMM_WORLD and with --dup also
 * on a duplicate that is freed before MPI_Finalize. Options: --calls=N (default 300),
 * --bytes=B (default 1024, a multiple of 4), --dup, --barrier (an MPI_Barrier per round too). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int npass, nfail, barrier;

static void rounds(MPI_Comm comm, int n, int count) {
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int *a = malloc(sizeof(int) * (size_t)count), *b = malloc(sizeof(int) * (size_t)count);
    for (int it = 0; it < n; it++) {
        for (int k = 0; k < count; k++) a[k] = r + k + it;
        MPI_Allreduce(a, b, count, MPI_INT, MPI_SUM, comm);
        int ok = 1;
        for (int k = 0; k < count; k++) ok &= b[k] == p * (p - 1) / 2 + p * (k + it);
        int root = it % p;
        for (int k = 0; k < count; k++) a[k] = r == root ? 7 * k + it : -1;
        MPI_Bcast(a, count, MPI_INT, root, comm);
        if (barrier) MPI_Barrier(comm);
        for (int k = 0; k < count; k++) ok &= a[k] == 7 * k + it;
        if (ok) {
            npass++;
        } else if (nfail++ < 10) {
            fprintf(stderr, "FAIL rank %d: round %d (p=%d count=%d)\n", r, it, p, count);
        }
    }
    free(a);
    free(b);
}

int main(int argc, char **argv) {
    int n = 300, bytes = 1024, dup = 0, rank;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--calls=", 8)) n = atoi(argv[i] + 8);
        if (!strncmp(argv[i], "--bytes=", 8)) bytes = atoi(argv[i] + 8);
        if (!strcmp(argv[i], "--dup")) dup = 1;
        if (!strcmp(argv[i], "--barrier")) barrier = 1;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    rounds(MPI_COMM_WORLD, n, bytes / 4);
    if (dup) {
        MPI_Comm d;
        MPI_Comm_dup(MPI_COMM_WORLD, &d);
        rounds(d, n, bytes / 4);
        MPI_Comm_free(&d);
    }
    int local[2] = {npass, nfail}, total[2];
    MPI_Allreduce(local, total, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("guard_app: %d passed, %d failed\n", total[0], total[1]);
    MPI_Finalize();
    return total[1] ? 1 : 0;
}
