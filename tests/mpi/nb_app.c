/* The nonblocking collectives libmpiguide intercepts (MPI_Iallgather, MPI_Iallgatherv,
 * MPI_Iallreduce, MPI_Ialltoall, MPI_Ialltoallv, MPI_Ibarrier, MPI_Ibcast, MPI_Iexscan,
 * MPI_Igather, MPI_Igatherv, MPI_Ireduce, MPI_Ireduce_scatter, MPI_Ireduce_scatter_block,
 * MPI_Iscan, MPI_Iscatter, MPI_Iscatterv), each completed by another of the
 * wait and test calls whose wrappers time the completion (MPI_Test, Testall, Testany, Testsome,
 * Wait, Waitall, Waitany, Waitsome), with every result checked. Prints "nb_app: N passed, M
 * failed" on rank 0. usage: nb_app [ITERATIONS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 48 /* elements per rank */

static int npass, nfail;

static void check(int ok, const char *what) {
    if (ok) {
        npass++;
        return;
    }
    nfail++;
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    fprintf(stderr, "nb_app: rank %d: %s wrong\n", r, what);
}

/* Completion by a test loop of each kind (bounded: a test that never completes fails). */
static int by_test(MPI_Request *q, int kind) {
    int flag = 0, idx, out, ids[1];
    MPI_Status st[1];
    for (long spin = 0; spin < 100000000L && !flag; spin++) switch (kind) {
        case 0:
            MPI_Test(q, &flag, st);
            break;
        case 1:
            MPI_Testall(1, q, &flag, st);
            break;
        case 2:
            MPI_Testany(1, q, &idx, &flag, st);
            break;
        default:
            MPI_Testsome(1, q, &out, ids, st);
            flag = out == 1;
            break;
        }
    return flag && *q == MPI_REQUEST_NULL;
}

static int by_wait(MPI_Request *q, int kind) {
    int idx, out = 0, ids[1];
    MPI_Status st[1];
    switch (kind) {
    case 0:
        MPI_Wait(q, st);
        break;
    case 1:
        MPI_Waitall(1, q, st);
        break;
    case 2:
        MPI_Waitany(1, q, &idx, st);
        break;
    default:
        while (out != 1) MPI_Waitsome(1, q, &out, ids, st);
        break;
    }
    return *q == MPI_REQUEST_NULL;
}

/* Rank i's block of the v-collectives holds i + 1 elements, at displacement i (i + 1) / 2. */
static void v_counts(int p, int *counts, int *displs) {
    for (int i = 0; i < p; i++) counts[i] = i + 1, displs[i] = i * (i + 1) / 2;
}

/* The ten added later: rooted, scans, reduce-scatters and v-forms (x and y hold N p elements,
 * p <= 8). */
static void more(int r, int p, int it, double *x, double *y) {
    MPI_Request q;
    int ok, root = it % p, k1 = it % 4, k2 = (it + 3) % 4;
    int cnt[8], dsp[8], scnt[8], sdsp[8], rcnt[8], rdsp[8];
    v_counts(p, cnt, dsp);

    for (int k = 0; k < N; k++) x[k] = r * 1000 + k + it;
    for (int k = 0; k < N * p; k++) y[k] = -1;
    MPI_Igather(x, N, MPI_DOUBLE, y, N, MPI_DOUBLE, root, MPI_COMM_WORLD, &q);
    ok = by_wait(&q, k1);
    for (int i = 0; r == root && i < p; i++)
        for (int k = 0; k < N; k++) ok &= y[i * N + k] == i * 1000 + k + it;
    check(ok, "MPI_Igather");

    for (int i = 0; i < p; i++)
        for (int k = 0; k < N; k++) x[i * N + k] = r == root ? i * 1000 + k + it : -1;
    MPI_Iscatter(x, N, MPI_DOUBLE, y, N, MPI_DOUBLE, root, MPI_COMM_WORLD, &q);
    ok = by_test(&q, k2);
    for (int k = 0; k < N; k++) ok &= y[k] == r * 1000 + k + it;
    check(ok, "MPI_Iscatter");

    for (int k = 0; k < N; k++) x[k] = r + k + it, y[k] = -1;
    MPI_Iscan(x, y, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
    ok = by_test(&q, k1);
    for (int k = 0; k < N; k++) ok &= y[k] == (r + 1.0) * (k + it) + r * (r + 1) / 2.0;
    check(ok, "MPI_Iscan");

    for (int k = 0; k < N; k++) y[k] = -1;
    MPI_Iexscan(x, y, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
    ok = by_wait(&q, k2);
    for (int k = 0; r > 0 && k < N; k++) ok &= y[k] == (double)r * (k + it) + r * (r - 1) / 2.0;
    check(ok, "MPI_Iexscan");

    for (int k = 0; k < N * p; k++) x[k] = r + k + it, y[k] = -1;
    MPI_Ireduce_scatter(x, y, cnt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
    ok = by_wait(&q, (it + 1) % 4);
    for (int k = 0; k < cnt[r]; k++)
        ok &= y[k] == (double)p * (dsp[r] + k + it) + p * (p - 1) / 2.0;
    check(ok, "MPI_Ireduce_scatter");

    MPI_Ireduce_scatter_block(x, y, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
    ok = by_test(&q, (it + 2) % 4);
    for (int k = 0; k < 4; k++) ok &= y[k] == (double)p * (r * 4 + k + it) + p * (p - 1) / 2.0;
    check(ok, "MPI_Ireduce_scatter_block");

    for (int k = 0; k < N; k++) x[k] = r * 1000 + k + it;
    for (int k = 0; k < N * p; k++) y[k] = -1;
    MPI_Igatherv(x, r + 1, MPI_DOUBLE, y, cnt, dsp, MPI_DOUBLE, root, MPI_COMM_WORLD, &q);
    ok = by_test(&q, k1);
    for (int i = 0; r == root && i < p; i++)
        for (int k = 0; k < cnt[i]; k++) ok &= y[dsp[i] + k] == i * 1000 + k + it;
    check(ok, "MPI_Igatherv");

    for (int i = 0; i < p; i++)
        for (int k = 0; k < cnt[i]; k++) x[dsp[i] + k] = r == root ? i * 1000 + k + it : -1;
    for (int k = 0; k < N; k++) y[k] = -1;
    MPI_Iscatterv(x, cnt, dsp, MPI_DOUBLE, y, r + 1, MPI_DOUBLE, root, MPI_COMM_WORLD, &q);
    ok = by_wait(&q, k2);
    for (int k = 0; k < r + 1; k++) ok &= y[k] == r * 1000 + k + it;
    check(ok, "MPI_Iscatterv");

    for (int k = 0; k < N; k++) x[k] = r * 1000 + k + it;
    for (int k = 0; k < N * p; k++) y[k] = -1;
    MPI_Iallgatherv(x, r + 1, MPI_DOUBLE, y, cnt, dsp, MPI_DOUBLE, MPI_COMM_WORLD, &q);
    ok = by_wait(&q, (it + 2) % 4);
    for (int i = 0; i < p; i++)
        for (int k = 0; k < cnt[i]; k++) ok &= y[dsp[i] + k] == i * 1000 + k + it;
    check(ok, "MPI_Iallgatherv");

    /* rank i sends i + j + 1 elements to rank j */
    for (int j = 0, s = 0, t = 0; j < p; j++) {
        scnt[j] = r + j + 1, sdsp[j] = s, s += scnt[j];
        rcnt[j] = j + r + 1, rdsp[j] = t, t += rcnt[j];
        for (int k = 0; k < scnt[j]; k++) x[sdsp[j] + k] = r * 1000 + j * 10 + k + it;
    }
    for (int k = 0; k < N * p; k++) y[k] = -1;
    MPI_Ialltoallv(x, scnt, sdsp, MPI_DOUBLE, y, rcnt, rdsp, MPI_DOUBLE, MPI_COMM_WORLD, &q);
    ok = by_test(&q, (it + 3) % 4);
    for (int i = 0; i < p; i++)
        for (int k = 0; k < rcnt[i]; k++) ok &= y[rdsp[i] + k] == i * 1000 + r * 10 + k + it;
    check(ok, "MPI_Ialltoallv");
}

int main(int argc, char **argv) {
    int r, p, iterations = argc > 1 ? atoi(argv[1]) : 4;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (p > 8) MPI_Abort(MPI_COMM_WORLD, 2); /* more() keeps its counts on the stack */
    double *x = malloc(sizeof(double) * N * (size_t)p), *y = malloc(sizeof(double) * N * (size_t)p);
    for (int it = 0; it < iterations; it++) {
        MPI_Request q;
        int ok, k2 = it % 4, k1 = (it + 1) % 4;
        for (int k = 0; k < N; k++) x[k] = r + k + it, y[k] = -1;
        MPI_Iallreduce(x, y, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q);
        ok = by_test(&q, k2);
        for (int k = 0; k < N; k++) ok &= y[k] == (double)p * (k + it) + p * (p - 1) / 2.0;
        check(ok, "MPI_Iallreduce");

        for (int k = 0; k < N; k++) y[k] = -1;
        MPI_Ireduce(x, y, N, MPI_DOUBLE, MPI_MAX, p - 1, MPI_COMM_WORLD, &q);
        ok = by_wait(&q, k1);
        for (int k = 0; r == p - 1 && k < N; k++) ok &= y[k] == p - 1 + k + it;
        check(ok, "MPI_Ireduce");

        for (int k = 0; k < N; k++) x[k] = r == 0 ? k * 3 + it : -1;
        MPI_Ibcast(x, N, MPI_DOUBLE, 0, MPI_COMM_WORLD, &q);
        ok = by_wait(&q, k2);
        for (int k = 0; k < N; k++) ok &= x[k] == k * 3 + it;
        check(ok, "MPI_Ibcast");

        for (int k = 0; k < N; k++) x[k] = r * 1000 + k + it;
        for (int k = 0; k < N * p; k++) y[k] = -1;
        MPI_Iallgather(x, N, MPI_DOUBLE, y, N, MPI_DOUBLE, MPI_COMM_WORLD, &q);
        ok = by_test(&q, k1);
        for (int i = 0; i < p; i++)
            for (int k = 0; k < N; k++) ok &= y[i * N + k] == i * 1000 + k + it;
        check(ok, "MPI_Iallgather");

        int per = N / p > 0 ? N / p : 1;
        for (int i = 0; i < p; i++)
            for (int k = 0; k < per; k++) x[i * per + k] = r * 1000 + i * 10 + k + it;
        MPI_Ialltoall(x, per, MPI_DOUBLE, y, per, MPI_DOUBLE, MPI_COMM_WORLD, &q);
        ok = by_wait(&q, (it + 2) % 4);
        for (int i = 0; i < p; i++)
            for (int k = 0; k < per; k++) ok &= y[i * per + k] == i * 1000 + r * 10 + k + it;
        check(ok, "MPI_Ialltoall");

        MPI_Ibarrier(MPI_COMM_WORLD, &q);
        check(by_test(&q, (it + 2) % 4), "MPI_Ibarrier");
        more(r, p, it, x, y);
    }
    free(x), free(y);
    int local[2] = {npass, nfail}, total[2];
    PMPI_Reduce(local, total, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (r == 0) printf("nb_app: %d passed, %d failed\n", total[0], total[1]);
    MPI_Finalize();
    return r == 0 && total[1] ? 1 : 0;
}
