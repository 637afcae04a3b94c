/* A plain MPI program for bench/online.sh: times each (collective, message size) of a fixed
 * list as an application would call it, CALLS calls in a loop on MPI_COMM_WORLD, the public
 * MPI_* calls only (so libmpiguide, when preloaded, intercepts them as configured). Prints one
 * line per (collective, size): the loop's time per call, the largest over the ranks, and at the
 * end the whole run's time. It checks one result per collective so a wrong one cannot pass as
 * fast.
 * Every size gets the same number of calls, so that a decision online mode takes after call c
 * keeps the same share (CALLS - c) / CALLS of a gain at every size.
 *   usage: mpirun -np P coll_times [CALLS]   (default 3000) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ALLREDUCE, BCAST, ALLGATHER, ALLTOALL, REDUCE, NCOLL };
static const char *names[NCOLL] = {"MPI_Allreduce", "MPI_Bcast", "MPI_Allgather", "MPI_Alltoall",
                                   "MPI_Reduce"};
static const int sizes[] = {8, 1024, 16384, 131072}; /* bytes per rank's block */

static int bad;

static void one(int coll, int n, int p, int rank, char *a, char *b) {
    switch (coll) {
    case ALLREDUCE:
        MPI_Allreduce(a, b, n / 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        bad |= n >= 4 && ((int *)b)[0] != p * (p - 1) / 2;
        break;
    case BCAST:
        MPI_Bcast(a, n, MPI_BYTE, 0, MPI_COMM_WORLD);
        bad |= a[0] != 0;
        break;
    case ALLGATHER:
        MPI_Allgather(a, n, MPI_BYTE, b, n, MPI_BYTE, MPI_COMM_WORLD);
        bad |= b[(size_t)(p - 1) * (size_t)n] != (char)(p - 1);
        break;
    case ALLTOALL:
        MPI_Alltoall(a, n, MPI_BYTE, b, n, MPI_BYTE, MPI_COMM_WORLD);
        bad |= b[0] != 0;
        break;
    case REDUCE:
        MPI_Reduce(a, b, n / 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        bad |= rank == 0 && n >= 4 && ((int *)b)[0] != p * (p - 1) / 2;
        break;
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int p, rank, calls = argc > 1 ? atoi(argv[1]) : 3000;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    size_t most = (size_t)p * 131072;
    char *a = malloc(most), *b = malloc(most);
    if (!a || !b || calls < 1) MPI_Abort(MPI_COMM_WORLD, 2);
    double t0 = MPI_Wtime();
    for (int c = 0; c < NCOLL; c++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int n = sizes[s], k = calls;
            /* rank r's int elements are r, its bytes (r & 127) in every block */
            for (size_t i = 0; i < most / 4; i++) ((int *)a)[i] = rank;
            if (c != ALLREDUCE && c != REDUCE) memset(a, rank & 127, most);
            MPI_Barrier(MPI_COMM_WORLD);
            double t = MPI_Wtime();
            for (int i = 0; i < k; i++) one(c, n, p, rank, a, b);
            t = (MPI_Wtime() - t) / k;
            double tmax;
            MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (rank == 0) printf("coll_times %s %d %.6e\n", names[c], n, tmax);
        }
    double total = MPI_Wtime() - t0, tmax;
    int anybad;
    MPI_Reduce(&total, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (rank == 0) printf("coll_times total %.6f %s\n", tmax, anybad ? "WRONG" : "correct");
    free(a);
    free(b);
    MPI_Finalize();
    return anybad;
}
