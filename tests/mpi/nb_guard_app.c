/* The guard of nonblocking collectives (docs/interception.md "The guard of nonblocking
 * collectives"): CALLS times MPI_Iallreduce of 128 doubles on MPI_COMM_WORLD, completed by
 * MPI_Wait, each followed by a blocking MPI_Allreduce of one int on the same communicator (the
 * point where a due verdict is agreed), every result checked. Prints "nb_guard_app: N passed,
 * M failed" on rank 0. With "nonblocking-only" the blocking MPI_Allreduce is left out (a
 * communicator whose due verdict is never agreed). With "two-types" each MPI_Iallreduce of
 * doubles is followed by one of 256 ints with MPI_SUM: the same 1,024 B, which another profile
 * (of MPI_INT) covers, so one size has two guarded entries (nb_guard.c's slot per algorithm).
 * usage: nb_guard_app [CALLS [nonblocking-only|two-types]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 128

/* One MPI_Iallreduce of N doubles (or 2 N ints: the same bytes) completed by MPI_Wait; 1 when
 * the sums are right. */
static int iallreduce(int ints, int r, int p, int it) {
    double x[N], y[N];
    int xi[2 * N], yi[2 * N], ok = 1;
    MPI_Request q;
    for (int k = 0; k < N; k++) x[k] = r + k + it, y[k] = -1;
    for (int k = 0; k < 2 * N; k++) xi[k] = r + k + it, yi[k] = -1;
    if (ints)
        MPI_Iallreduce(xi, yi, 2 * N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
    else
        MPI_Iallreduce(x, y, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    if (ints)
        for (int k = 0; k < 2 * N; k++) ok &= yi[k] == p * (k + it) + p * (p - 1) / 2;
    else
        for (int k = 0; k < N; k++) ok &= y[k] == (double)p * (k + it) + p * (p - 1) / 2.0;
    return ok;
}

int main(int argc, char **argv) {
    int r, p, calls = argc > 1 ? atoi(argv[1]) : 300, pass = 0, fail = 0;
    int blocking = !(argc > 2 && !strcmp(argv[2], "nonblocking-only"));
    int two = argc > 2 && !strcmp(argv[2], "two-types");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (int it = 0; it < calls; it++) {
        int ok = iallreduce(0, r, p, it);
        if (two) ok &= iallreduce(1, r, p, it);
        int all = p;
        if (blocking) MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        ok &= all == p;
        pass += ok, fail += !ok;
        if (!ok) fprintf(stderr, "nb_guard_app: rank %d: call %d wrong\n", r, it);
    }
    int local[2] = {pass, fail}, total[2];
    PMPI_Reduce(local, total, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (r == 0) printf("nb_guard_app: %d passed, %d failed\n", total[0], total[1]);
    MPI_Finalize();
    return r == 0 && total[1] ? 1 : 0;
}
