/* A program that knows nothing of mpiguide and passes send and receive buffers that are
 * neighbours in one array, the way benchmark applications combine their timings:
 *     double t[2] = {0.0, 1.0 + rank};
 *     MPI_Allreduce(&t[1], &t[0], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
 * (the reductions here on ints, so the repair mock-ups of integer ops run too). Every
 * intercepted reduction and data-movement collective (MPI_Barrier too: its mock-ups must run)
 * runs with the receive buffer right
 * before the send buffer and right after it, at small counts where some ranks' blocks are
 * empty and sit at the boundary. Results are checked against values computed locally; prints
 * "adjacent: N passed, M failed". Run it under forced mode (tests/mpi/intercept_adjacent.cmake). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define MAXP  16
#define SLOTS (4 * MAXP * MAXP)

static int rank, p, passed, failed;

static void expect(int ok, const char *what, int order, int n) {
    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("adjacent: rank %d: %s with the receive buffer %s the send buffer, count %d: wrong "
           "result\n",
           rank, what, order ? "after" : "before", n);
}

/* Send and receive regions of `ns` and `nr` doubles in one array: recv first (order 0) or
 * send first (order 1), no gap between them. An empty region still takes one slot: MPICH
 * rejects a call whose two pointers are equal, so the program itself never passes that. */
static void place_at(int order, int ns, int nr, int *send, int *recv) {
    *recv = order ? (ns ? ns : 1) : 0;
    *send = order ? 0 : (nr ? nr : 1);
}

static void place(double *arr, int order, int ns, int nr, double **send, double **recv) {
    int so, ro;
    place_at(order, ns, nr, &so, &ro);
    *send = arr + so, *recv = arr + ro;
}

/* The same for the reductions, which run on ints: the repair mock-ups with mpiguide's own
 * MPI_MIN / MPI_MAX / MPI_SUM (docs/defects.md) take integer types only. */
static void iplace(int *arr, int order, int ns, int nr, int **send, int **recv) {
    int so, ro;
    place_at(order, ns, nr, &so, &ro);
    *send = arr + so, *recv = arr + ro;
}

static int ival(int r, int i) {
    return 1 + r + 4 * i;
}

static double val(int r, int i) {
    return 1.0 + r + 0.25 * i;
}

static void reductions(int order, int n) {
    int arr[SLOTS] = {0}, *s, *r;
    int ok;
    /* MPI_Allreduce, MAX: the last rank's values */
    iplace(arr, order, n, n, &s, &r);
    for (int i = 0; i < n; i++) s[i] = ival(rank, i), r[i] = -1;
    MPI_Allreduce(s, r, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i < n; i++) ok &= r[i] == ival(p - 1, i);
    expect(ok, "MPI_Allreduce", order, n);
    /* MPI_Reduce to the last rank, SUM */
    for (int i = 0; i < n; i++) s[i] = ival(rank, i), r[i] = -1;
    MPI_Reduce(s, r, n, MPI_INT, MPI_SUM, p - 1, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i < n && rank == p - 1; i++) {
        int sum = 0;
        for (int q = 0; q < p; q++) sum += ival(q, i);
        ok &= r[i] == sum;
    }
    expect(ok, "MPI_Reduce", order, n);
    /* MPI_Scan, MAX: this rank's values */
    for (int i = 0; i < n; i++) s[i] = ival(rank, i), r[i] = -1;
    MPI_Scan(s, r, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i < n; i++) ok &= r[i] == ival(rank, i);
    expect(ok, "MPI_Scan", order, n);
    /* MPI_Reduce_scatter_block, MAX: p blocks of n in, block `rank` out */
    iplace(arr, order, p * n, n, &s, &r);
    for (int i = 0; i < p * n; i++) s[i] = ival(rank, i);
    for (int i = 0; i < n; i++) r[i] = -1;
    MPI_Reduce_scatter_block(s, r, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i < n; i++) ok &= r[i] == ival(p - 1, rank * n + i);
    expect(ok, "MPI_Reduce_scatter_block", order, n);
    /* MPI_Reduce_scatter, MAX: all n elements go to rank 0, every other block is empty */
    int counts[MAXP] = {0};
    counts[0] = n;
    int mine = rank == 0 ? n : 0;
    iplace(arr, order, n, mine, &s, &r);
    for (int i = 0; i < n; i++) s[i] = ival(rank, i);
    for (int i = 0; i < mine; i++) r[i] = -1;
    MPI_Reduce_scatter(s, r, counts, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i < mine; i++) ok &= r[i] == ival(p - 1, i);
    expect(ok, "MPI_Reduce_scatter", order, n);
    /* MPI_Exscan, SUM: the sum over the ranks before this one (rank 0's result undefined) */
    iplace(arr, order, n, n, &s, &r);
    for (int i = 0; i < n; i++) s[i] = ival(rank, i), r[i] = -1;
    MPI_Exscan(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i < n && rank > 0; i++) {
        int sum = 0;
        for (int q = 0; q < rank; q++) sum += ival(q, i);
        ok &= r[i] == sum;
    }
    expect(ok, "MPI_Exscan", order, n);
}

/* Elements rank i sends rank j in MPI_Alltoallv: n or none, so empty blocks sit between. */
static int pair(int i, int j, int n) {
    return (i + j) % 2 ? 0 : n;
}

static int pair_displ(int i, int j, int n) {
    int d = 0;
    for (int k = 0; k < j; k++) d += pair(i, k, n);
    return d;
}

static void data_movement(int order, int n) {
    double arr[SLOTS] = {0}, *s, *r;
    int ok;
    /* MPI_Allgather: block q of the result holds rank q's values */
    place(arr, order, n, p * n, &s, &r);
    for (int i = 0; i < n; i++) s[i] = val(rank, i);
    for (int i = 0; i < p * n; i++) r[i] = -1;
    MPI_Allgather(s, n, MPI_DOUBLE, r, n, MPI_DOUBLE, MPI_COMM_WORLD);
    ok = 1;
    for (int q = 0; q < p; q++)
        for (int i = 0; i < n; i++) ok &= r[q * n + i] == val(q, i);
    expect(ok, "MPI_Allgather", order, n);
    /* MPI_Gather to the last rank */
    for (int i = 0; i < n; i++) s[i] = val(rank, i);
    for (int i = 0; i < p * n; i++) r[i] = -1;
    MPI_Gather(s, n, MPI_DOUBLE, r, n, MPI_DOUBLE, p - 1, MPI_COMM_WORLD);
    ok = 1;
    for (int q = 0; q < p && rank == p - 1; q++)
        for (int i = 0; i < n; i++) ok &= r[q * n + i] == val(q, i);
    expect(ok, "MPI_Gather", order, n);
    /* MPI_Alltoall: block q of the result is block `rank` of rank q's input */
    place(arr, order, p * n, p * n, &s, &r);
    for (int i = 0; i < p * n; i++) s[i] = val(rank, i), r[i] = -1;
    MPI_Alltoall(s, n, MPI_DOUBLE, r, n, MPI_DOUBLE, MPI_COMM_WORLD);
    ok = 1;
    for (int q = 0; q < p; q++)
        for (int i = 0; i < n; i++) ok &= r[q * n + i] == val(q, rank * n + i);
    expect(ok, "MPI_Alltoall", order, n);
    /* MPI_Scatter from the last rank */
    place(arr, order, p * n, n, &s, &r);
    for (int i = 0; i < p * n; i++) s[i] = val(rank, i);
    for (int i = 0; i < n; i++) r[i] = -1;
    MPI_Scatter(s, n, MPI_DOUBLE, r, n, MPI_DOUBLE, p - 1, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i < n; i++) ok &= r[i] == val(p - 1, rank * n + i);
    expect(ok, "MPI_Scatter", order, n);
    /* MPI_Gatherv to rank 0: rank q sends q % 2 ? 0 : n values (empty blocks in between) */
    int counts[MAXP], displs[MAXP], total = 0;
    for (int q = 0; q < p; q++) counts[q] = q % 2 ? 0 : n, displs[q] = total, total += counts[q];
    place(arr, order, counts[rank], total, &s, &r);
    for (int i = 0; i < counts[rank]; i++) s[i] = val(rank, i);
    for (int i = 0; i < total; i++) r[i] = -1;
    MPI_Gatherv(s, counts[rank], MPI_DOUBLE, r, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    ok = 1;
    for (int q = 0; q < p && rank == 0; q++)
        for (int i = 0; i < counts[q]; i++) ok &= r[displs[q] + i] == val(q, i);
    expect(ok, "MPI_Gatherv", order, n);
    /* MPI_Scatterv from rank 0 with the same layout */
    place(arr, order, total, counts[rank], &s, &r);
    for (int i = 0; i < total; i++) s[i] = val(rank, i);
    for (int i = 0; i < counts[rank]; i++) r[i] = -1;
    MPI_Scatterv(s, counts, displs, MPI_DOUBLE, r, counts[rank], MPI_DOUBLE, 0, MPI_COMM_WORLD);
    ok = 1;
    for (int i = 0; i < counts[rank]; i++) ok &= r[i] == val(0, displs[rank] + i);
    expect(ok, "MPI_Scatterv", order, n);
    /* MPI_Allgatherv with the same layout: every rank gets every block */
    place(arr, order, counts[rank], total, &s, &r);
    for (int i = 0; i < counts[rank]; i++) s[i] = val(rank, i);
    for (int i = 0; i < total; i++) r[i] = -1;
    MPI_Allgatherv(s, counts[rank], MPI_DOUBLE, r, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    ok = 1;
    for (int q = 0; q < p; q++)
        for (int i = 0; i < counts[q]; i++) ok &= r[displs[q] + i] == val(q, i);
    expect(ok, "MPI_Allgatherv", order, n);
    /* MPI_Alltoallv: rank i sends pair(i, j) values to rank j */
    int sc[MAXP], sd[MAXP], rc[MAXP], rd[MAXP], stot = 0, rtot = 0;
    for (int q = 0; q < p; q++) {
        sc[q] = pair(rank, q, n), sd[q] = stot, stot += sc[q];
        rc[q] = pair(q, rank, n), rd[q] = rtot, rtot += rc[q];
    }
    place(arr, order, stot, rtot, &s, &r);
    for (int i = 0; i < stot; i++) s[i] = val(rank, i);
    for (int i = 0; i < rtot; i++) r[i] = -1;
    MPI_Alltoallv(s, sc, sd, MPI_DOUBLE, r, rc, rd, MPI_DOUBLE, MPI_COMM_WORLD);
    ok = 1;
    for (int q = 0; q < p; q++)
        for (int i = 0; i < rc[q]; i++) ok &= r[rd[q] + i] == val(q, pair_displ(q, rank, n) + i);
    expect(ok, "MPI_Alltoallv", order, n);
    /* MPI_Barrier: no buffers, but its mock-ups must run and return */
    expect(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Barrier", order, n);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (p > MAXP) {
        if (rank == 0) printf("adjacent: at most %d ranks\n", MAXP);
        MPI_Finalize();
        return 1;
    }
    /* counts 1 and p - 1 leave some ranks' chunks of a split vector empty */
    int counts[] = {1, p > 1 ? p - 1 : 2, 3};
    for (int order = 0; order < 2; order++)
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            reductions(order, counts[k]);
            data_movement(order, counts[k]);
        }
    int mine[2] = {passed, failed}, all[2];
    MPI_Reduce(mine, all, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("adjacent: %d passed, %d failed\n", all[0], all[1]);
    MPI_Finalize();
    return rank == 0 && all[1] != 0;
}
