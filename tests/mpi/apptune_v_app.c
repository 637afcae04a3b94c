/* An "application" for the end-to-end test of issue 27 (apptune_v_e2e.sh): it knows nothing of
 * mpiguide and calls MPI_Gatherv (irregular counts, root 0), MPI_Allgatherv (irregular counts),
 * MPI_Alltoallv (counts depending on both ranks), MPI_Barrier and MPI_Iallreduce (completed by
 * MPI_Wait or MPI_Waitall after local work), and MPI_Allreduce of one size both as MPI_DOUBLE
 * with MPI_SUM and as MPI_INT with MPI_MAX (two profiles of one collective and size) on
 * MPI_COMM_WORLD and on a split of half its size, checking every result. Prints "apptune_v_app: N
 * passed, M failed" on rank 0. usage: apptune_v_app [ITERATIONS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int npass, nfail;
#define NRED 64 /* doubles of MPI_Iallreduce */

static void check(int ok) {
    if (ok)
        npass++;
    else
        nfail++;
}

/* Elements rank r contributes: irregular (one large block among small ones). */
static int count_of(int r, int scale) {
    return scale * (r == 0 ? 40 : 1 + (r * 5) % 7);
}
/* Elements rank i sends to rank j in MPI_Alltoallv. */
static int pair_count(int i, int j, int scale) {
    return scale * (1 + (i + 2 * j) % 3);
}

static int value(int r, int k) {
    return r * 100000 + k;
}

static void run(MPI_Comm comm, int iterations, int scale) {
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
    int *scounts = malloc(sizeof(int) * (size_t)p), *sdispls = malloc(sizeof(int) * (size_t)p);
    int *rcounts = malloc(sizeof(int) * (size_t)p), *rdispls = malloc(sizeof(int) * (size_t)p);
    int total = 0, stotal = 0, rtotal = 0;
    for (int i = 0; i < p; i++) {
        counts[i] = count_of(i, scale), displs[i] = total, total += counts[i];
        scounts[i] = pair_count(r, i, scale), sdispls[i] = stotal, stotal += scounts[i];
        rcounts[i] = pair_count(i, r, scale), rdispls[i] = rtotal, rtotal += rcounts[i];
    }
    int mine = counts[r];
    int *s = malloc(sizeof(int) * (size_t)(mine + stotal)),
        *d = malloc(sizeof(int) * (size_t)(total + rtotal));
    for (int it = 0; it < iterations; it++) {
        for (int k = 0; k < mine; k++) s[k] = value(r, k + it);
        for (int k = 0; k < total; k++) d[k] = -1;
        MPI_Gatherv(s, mine, MPI_INT, d, counts, displs, MPI_INT, 0, comm);
        int ok = 1;
        for (int i = 0; r == 0 && i < p; i++)
            for (int k = 0; k < counts[i]; k++) ok &= d[displs[i] + k] == value(i, k + it);
        check(ok);
        for (int k = 0; k < total; k++) d[k] = -1;
        MPI_Allgatherv(s, mine, MPI_INT, d, counts, displs, MPI_INT, comm);
        ok = 1;
        for (int i = 0; i < p; i++)
            for (int k = 0; k < counts[i]; k++) ok &= d[displs[i] + k] == value(i, k + it);
        check(ok);
        for (int j = 0; j < p; j++)
            for (int k = 0; k < scounts[j]; k++) s[sdispls[j] + k] = value(r, j * 1000 + k + it);
        for (int k = 0; k < rtotal; k++) d[k] = -1;
        MPI_Alltoallv(s, scounts, sdispls, MPI_INT, d, rcounts, rdispls, MPI_INT, comm);
        ok = 1;
        for (int i = 0; i < p; i++)
            for (int k = 0; k < rcounts[i]; k++)
                ok &= d[rdispls[i] + k] == value(i, r * 1000 + k + it);
        check(ok);
        check(MPI_Barrier(comm) == MPI_SUCCESS);
        double x[NRED], y[NRED];
        MPI_Request req;
        MPI_Status st[1]; /* MPICH's MPI_STATUSES_IGNORE trips gcc's bounds warning */
        for (int k = 0; k < NRED; k++) x[k] = r + k + it, y[k] = -1;
        MPI_Iallreduce(x, y, NRED, MPI_DOUBLE, MPI_SUM, comm, &req);
        if (it % 2)
            MPI_Waitall(1, &req, st);
        else
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        ok = req == MPI_REQUEST_NULL;
        for (int k = 0; k < NRED; k++) ok &= y[k] == (double)p * (k + it) + p * (p - 1) / 2.0;
        check(ok);
        /* 512 bytes both: doubles with MPI_SUM, ints with MPI_MAX */
        for (int k = 0; k < NRED; k++) x[k] = r + k + it, y[k] = -1;
        MPI_Allreduce(x, y, NRED, MPI_DOUBLE, MPI_SUM, comm);
        ok = 1;
        for (int k = 0; k < NRED; k++) ok &= y[k] == (double)p * (k + it) + p * (p - 1) / 2.0;
        check(ok);
        int xi[2 * NRED], yi[2 * NRED];
        for (int k = 0; k < 2 * NRED; k++) xi[k] = (r * 7 + k) % p + it, yi[k] = -1;
        MPI_Allreduce(xi, yi, 2 * NRED, MPI_INT, MPI_MAX, comm);
        ok = 1;
        for (int k = 0; k < 2 * NRED; k++) {
            int want = -1;
            for (int i = 0; i < p; i++)
                if ((i * 7 + k) % p + it > want) want = (i * 7 + k) % p + it;
            ok &= yi[k] == want;
        }
        check(ok);
    }
    free(counts), free(displs), free(scounts), free(sdispls), free(rcounts), free(rdispls);
    free(s), free(d);
}

int main(int argc, char **argv) {
    int rank, p, iterations = argc > 1 ? atoi(argv[1]) : 10;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank < p / 2, rank, &half);
    run(MPI_COMM_WORLD, iterations, 16);
    run(half, iterations, 16);
    MPI_Comm_free(&half);
    int local[2] = {npass, nfail}, total[2];
    /* the tally is the test's, not the application's: kept out of the record */
    PMPI_Reduce(local, total, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("apptune_v_app: %d passed, %d failed\n", total[0], total[1]);
    MPI_Finalize();
    return rank == 0 && total[1] ? 1 : 0;
}
