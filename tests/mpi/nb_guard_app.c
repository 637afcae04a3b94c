/* The guard of nonblocking collectives (docs/interception.md "The guard of nonblocking
 * collectives"): CALLS times MPI_Iallreduce of 128 doubles on MPI_COMM_WORLD, completed by
 * MPI_Wait, each followed by a blocking MPI_Allreduce of one int on the same communicator (the
 * point where a due verdict is agreed), every result checked. Prints "nb_guard_app: N passed,
 * M failed" on rank 0. With "nonblocking-only" the blocking MPI_Allreduce is left out (a
 * communicator whose due verdict is never agreed). usage: nb_guard_app [CALLS [nonblocking-only]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 128

int main(int argc, char **argv) {
    int r, p, calls = argc > 1 ? atoi(argv[1]) : 300, pass = 0, fail = 0;
    int blocking = !(argc > 2 && !strcmp(argv[2], "nonblocking-only"));
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    double x[N], y[N];
    for (int it = 0; it < calls; it++) {
        MPI_Request q;
        for (int k = 0; k < N; k++) x[k] = r + k + it, y[k] = -1;
        MPI_Iallreduce(x, y, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        int ok = 1;
        for (int k = 0; k < N; k++) ok &= y[k] == (double)p * (k + it) + p * (p - 1) / 2.0;
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
