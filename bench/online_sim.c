/* A plain MPI program for online mode on simulated clusters (bench/online_sim.sh, the smpi test
 * smpi.online): the collectives and sizes of examples/smpi.txt that an offline tune of the
 * quickstart measures (MPI_Allgather, MPI_Allreduce, MPI_Bcast, MPI_Gather, MPI_Reduce,
 * MPI_Scatter at 8 and 64 B per rank), CALLS calls of each in a loop on MPI_COMM_WORLD, through
 * the public MPI_* calls only, so that libmpiguide (linked whole, or preloaded) races them as
 * configured. Prints per (collective, size) the loop's time per call (the largest over the
 * ranks; simulated time under SMPI) and checks every result, so a wrong one cannot pass.
 *   usage: smpirun ... online_sim [CALLS] [COLLECTIVES]   (default 2000; COLLECTIVES: a
 *          comma-separated subset of the names above, default all; NAME:BYTES one size only,
 *          e.g. MPI_Allgather:64,MPI_Gather) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ALLGATHER, ALLREDUCE, BCAST, GATHER, REDUCE, SCATTER, NCOLL };
static const char *names[NCOLL] = {"MPI_Allgather", "MPI_Allreduce", "MPI_Bcast",
                                   "MPI_Gather",    "MPI_Reduce",    "MPI_Scatter"};
static const int sizes[] = {8, 64}; /* bytes per rank */

/* One call of collective c with n bytes (n / 4 ints) per rank; 1 when its result is wrong. The
 * root moves with the call: with a fixed root the other ranks of a Gather run thousands of
 * calls ahead and the root's queue of unexpected messages grows without bound (SMPI then takes
 * minutes for what takes seconds). */
static int one(int c, int n, int it, int p, int rank, int *a, int *b) {
    int k = n / 4, root = it % p, bad = 0;
    for (int i = 0; i < p * k; i++) a[i] = rank + i + it, b[i] = -1;
    switch (c) {
    case ALLGATHER:
        MPI_Allgather(a, k, MPI_INT, b, k, MPI_INT, MPI_COMM_WORLD);
        for (int r = 0; r < p; r++) bad |= b[r * k] != r + it;
        break;
    case ALLREDUCE:
        MPI_Allreduce(a, b, k, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        bad |= b[0] != p * (p - 1) / 2 + p * it;
        break;
    case BCAST:
        MPI_Bcast(a, k, MPI_INT, root, MPI_COMM_WORLD);
        bad |= a[0] != root + it;
        break;
    case GATHER:
        MPI_Gather(a, k, MPI_INT, b, k, MPI_INT, root, MPI_COMM_WORLD);
        for (int r = 0; rank == root && r < p; r++) bad |= b[r * k] != r + it;
        break;
    case REDUCE:
        MPI_Reduce(a, b, k, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
        bad |= rank == root && b[0] != p * (p - 1) / 2 + p * it;
        break;
    case SCATTER:
        MPI_Scatter(a, k, MPI_INT, b, k, MPI_INT, root, MPI_COMM_WORLD);
        bad |= b[0] != root + rank * k + it;
        break;
    }
    return bad;
}

/* Whether the list (NAME or NAME:BYTES entries, comma-separated; NULL: everything) names
 * collective `name` at `bytes` per rank. */
static int wanted(const char *only, const char *name, int bytes) {
    if (!only) return 1;
    size_t n = strlen(name);
    for (const char *at = strstr(only, name); at; at = strstr(at + 1, name)) {
        if (at != only && at[-1] != ',') continue;
        if (at[n] == '\0' || at[n] == ',') return 1;
        if (at[n] == ':' && atoi(at + n + 1) == bytes) return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int p, rank, calls = argc > 1 ? atoi(argv[1]) : 2000, bad = 0;
    const char *only = argc > 2 ? argv[2] : NULL;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *a = malloc(sizeof(int) * (size_t)p * 16), *b = malloc(sizeof(int) * (size_t)p * 16);
    if (!a || !b || calls < 1) MPI_Abort(MPI_COMM_WORLD, 2);
    for (int c = 0; c < NCOLL; c++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            if (!wanted(only, names[c], sizes[s])) continue;
            MPI_Barrier(MPI_COMM_WORLD);
            double t = MPI_Wtime(), tmax;
            for (int i = 0; i < calls; i++) bad |= one(c, sizes[s], i, p, rank, a, b);
            t = (MPI_Wtime() - t) / calls;
            MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (rank == 0) printf("online_sim %s %d %.6e\n", names[c], sizes[s], tmax);
        }
    }
    int anybad;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (rank == 0) printf("online_sim: %d ranks, %s\n", p, anybad ? "WRONG" : "correct");
    free(a);
    free(b);
    MPI_Finalize();
    return anybad;
}
