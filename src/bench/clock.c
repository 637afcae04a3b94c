/* Clock synchronisation against rank 0, HCA style: in round k (k = 1, 2, 4, ...) rank r with
 * r mod 2k = k fits a linear model of its clock against rank r - k from ping-pongs; the models
 * are then composed down the binomial tree, so after ceil(log2 p) rounds and as many hops
 * every rank maps its clock to rank 0's. Also the dissemination barrier and the harness set-up. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "watchdog.h"
#include <stdio.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG_PING  9101
#define TAG_MODEL 9102
#define TAG_DISS  9103

int mg_dissemination_barrier(MPI_Comm comm, int rank, int p) {
    for (int k = 1; k < p; k <<= 1) {
        int rc = PMPI_Sendrecv(NULL, 0, MPI_BYTE, (rank + k) % p, TAG_DISS, NULL, 0, MPI_BYTE,
                               (rank - k + p) % p, TAG_DISS, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

/* A blocking receive that, with more ranks than cores, lets the others run while it waits. */
static int recv_doubles(double *buf, int n, int src, int tag, MPI_Comm comm, int yield) {
    if (!yield) return PMPI_Recv(buf, n, MPI_DOUBLE, src, tag, comm, MPI_STATUS_IGNORE);
    MPI_Request rq;
    int rc = PMPI_Irecv(buf, n, MPI_DOUBLE, src, tag, comm, &rq), done = 0;
    while (rc == MPI_SUCCESS && !done) {
        rc = PMPI_Test(&rq, &done, MPI_STATUS_IGNORE);
        if (!done) sched_yield();
    }
    return rc;
}

/* The reference side of one pair: answers every ping with its clock. */
static int serve(MPI_Comm comm, int client, int n, int yield) {
    for (int i = 0; i < n; i++) {
        double dummy, now;
        int rc = recv_doubles(&dummy, 1, client, TAG_PING, comm, yield);
        now = MPI_Wtime();
        if (rc == MPI_SUCCESS) rc = PMPI_Send(&now, 1, MPI_DOUBLE, client, TAG_PING, comm);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

/* The client side: fitpoints points of `exchanges` ping-pongs each, then the fit. */
static int learn(MPI_Comm comm, int ref, int fitpoints, int exchanges, int yield,
                 mg_clock_fit *fit) {
    int rc = MPI_SUCCESS;
    double *buf = malloc(sizeof(double) * (size_t)(3 * exchanges + 3 * fitpoints));
    if (!buf) return MPI_ERR_NO_MEM;
    double *t1 = buf, *tr = t1 + exchanges, *t2 = tr + exchanges;
    double *x = t2 + exchanges, *y = x + fitpoints, *rtt = y + fitpoints;
    for (int f = 0; f < fitpoints && rc == MPI_SUCCESS; f++) {
        mg_watchdog_kick(MG_WD_CLOCK);
        for (int e = 0; e < exchanges && rc == MPI_SUCCESS; e++) {
            double ping = 0.0;
            t1[e] = MPI_Wtime();
            rc = PMPI_Send(&ping, 1, MPI_DOUBLE, ref, TAG_PING, comm);
            if (rc == MPI_SUCCESS) rc = recv_doubles(&tr[e], 1, ref, TAG_PING, comm, yield);
            t2[e] = MPI_Wtime();
        }
        rtt[f] = mg_clock_point(t1, tr, t2, exchanges, &x[f], &y[f]);
    }
    if (rc == MPI_SUCCESS) mg_clock_fit_points(x, y, rtt, fitpoints, fit);
    free(buf);
    return rc;
}

#ifdef MPIGUIDE_TEST_HOOKS
/* Test builds only (docs/dev/interfaces.md section 2): MPIGUIDE_TEST_CLOCK_SHIFT=RANK:S puts
 * world rank RANK's synchronised clock S seconds behind rank 0's after every synchronisation,
 * a bad model the fit's bounds cannot catch, for the tests of the bounded waits and the
 * watchdog. */
static void test_shift(mg_clock_model *m) {
    const char *v = getenv("MPIGUIDE_TEST_CLOCK_SHIFT");
    int rank, who;
    double s;
    if (!v || sscanf(v, "%d:%lf", &who, &s) != 2) return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == who) m->a -= s;
}
#endif

int mg_clock_sync(MPI_Comm comm, int fitpoints, int exchanges, int yield, mg_clock_model *model,
                  double *err, double *rejected) {
    int rank, p, rc = MPI_SUCCESS;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &p);
    mg_clock_fit pair = {{0.0, 0.0, 0.0}, 0.0, 0.0, 0, 0, 0.0, 0};
    int top = 1;
    while (top < p) top <<= 1;
    /* rounds: fit against the parent r - lowbit(r) */
    for (int k = 1; k < p && rc == MPI_SUCCESS; k <<= 1) {
        if (rank % (2 * k) == k)
            rc = learn(comm, rank - k, fitpoints, exchanges, yield, &pair);
        else if (rank % (2 * k) == 0 && rank + k < p)
            rc = serve(comm, rank + k, fitpoints * exchanges, yield);
    }
    /* composition, highest round first: a parent's model is final before its child asks */
    double mine[4] = {0.0, 0.0, 0.0, 0.0}; /* x0, a, b, error (to rank 0) */
    for (int k = top / 2; k >= 1 && rc == MPI_SUCCESS; k >>= 1) {
        if (rank % (2 * k) == 0 && rank + k < p) {
            rc = PMPI_Send(mine, 4, MPI_DOUBLE, rank + k, TAG_MODEL, comm);
        } else if (rank % (2 * k) == k) {
            double parent[4];
            rc = recv_doubles(parent, 4, rank - k, TAG_MODEL, comm, yield);
            mg_clock_model pm = {parent[0], parent[1], parent[2]};
            mg_clock_model c = mg_clock_compose(&pair.m, &pm);
            mine[0] = c.x0, mine[1] = c.a, mine[2] = c.b;
            mine[3] = sqrt(parent[3] * parent[3] + pair.rms * pair.rms);
        }
    }
    if (rc != MPI_SUCCESS) return rc;
    model->x0 = mine[0], model->a = mine[1], model->b = mine[2];
#ifdef MPIGUIDE_TEST_HOOKS
    test_shift(model);
#endif
    /* the error, and the rejected drifts of either sign */
    double in[3] = {mine[3], pair.rejected && pair.fitted_b > 0 ? pair.fitted_b : 0.0,
                    pair.rejected && pair.fitted_b < 0 ? -pair.fitted_b : 0.0},
           out[3];
    rc = PMPI_Allreduce(in, out, 3, MPI_DOUBLE, MPI_MAX, comm);
    *err = out[0];
    *rejected = out[1] >= out[2] ? out[1] : -out[2];
    return rc;
}

/* The time every rank needs to learn an agreed value: twice the slowest of a few small
 * allreduces, plus the clock error on both sides and a margin. Same on all ranks. */
static int measure_slack(mg_harness *h) {
    double worst = 0.0, in[3] = {0, 0, 0}, out[3];
    for (int i = 0; i < 5; i++) {
        double t = MPI_Wtime();
        int rc = PMPI_Allreduce(in, out, 3, MPI_DOUBLE, MPI_MAX, h->hcomm);
        if (rc != MPI_SUCCESS) return rc;
        t = MPI_Wtime() - t;
        if (i > 0 && t > worst) worst = t; /* the first one may set up connections */
    }
    double all;
    int rc = PMPI_Allreduce(&worst, &all, 1, MPI_DOUBLE, MPI_MAX, h->hcomm);
    h->slack = 2.0 * all + 4.0 * h->clock_err + 5e-6;
    return rc;
}

int mg_harness_sync_clocks(mg_harness *h, int force) {
    if (!h->need_clock) return MPI_SUCCESS;
    /* due everywhere when any rank asks (a failed start) or rank 0 finds the last fit
     * old; the failed starts each rank counted since travel along */
    double in[3] = {force || h->resync_due ||
                        (h->rank == 0 && MPI_Wtime() - h->synced_at >= MG_RESYNC_S),
                    (double)h->failed_starts, h->failed_ahead},
           out[3];
    int rc = PMPI_Allreduce(in, out, 3, MPI_DOUBLE, MPI_MAX, h->hcomm);
    if (rc != MPI_SUCCESS || out[0] == 0.0) return rc;
    mg_watchdog_kick(MG_WD_CLOCK);
    double rejected = 0.0;
    rc = mg_clock_sync(h->hcomm, h->fitpoints, h->exchanges, h->yield, &h->clock, &h->clock_err,
                       &rejected);
    if (rc == MPI_SUCCESS) rc = measure_slack(h);
    h->synced_at = MPI_Wtime();
    h->resync_due = 0;
    h->failed_starts = 0;
    h->failed_ahead = 0.0;
    /* what the raw file says about it (docs/benchmark.md "Clock synchronisation") */
    if (rejected != 0.0) {
        h->ev.rejected++;
        if (fabs(rejected) > fabs(h->ev.drift)) h->ev.drift = rejected;
    }
    h->ev.failed += (int64_t)out[1];
    if (out[2] > h->ev.ahead) h->ev.ahead = out[2];
    return rc;
}

void mg_clock_events_text(mg_harness *h, char *out, size_t len) {
    int n = 0;
    out[0] = 0;
    if (h->ev.rejected)
        n = snprintf(out, len, "#@clock_sync=drift_rejected count=%lld drift=%.3g\n",
                     (long long)h->ev.rejected, h->ev.drift);
    if (h->ev.failed && n >= 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, "#@clock_sync=failed_start count=%lld ahead=%.3g\n",
                 (long long)h->ev.failed, h->ev.ahead);
    memset(&h->ev, 0, sizeof h->ev);
}

int mg_harness_init(mg_harness *h, MPI_Comm world, const mg_bench_opts *o) {
    memset(h, 0, sizeof *h);
    /* one duplicate, for the harness's own messages, so that they never match a measured
     * call's; the calls under test run on world itself, which nothing else uses during a run.
     * Under SMPI every new communicator costs a ring allgather over its ranks, p(p-1) simulated
     * messages (docs/at-scale.md): a second duplicate was a third of a launch's start at 1,024 */
    h->comm = world;
    int rc = PMPI_Comm_dup(world, &h->hcomm);
    if (rc != MPI_SUCCESS) return rc;
    PMPI_Comm_rank(h->comm, &h->rank);
    PMPI_Comm_size(h->comm, &h->p);
    h->sync = o->sync;
    h->runtime = o->runtime;
    h->need_clock = o->sync == MG_SYNC_WINDOW || o->sync == MG_SYNC_ROUNDTIME ||
                    o->runtime == MG_RUNTIME_GLOBAL;
    h->fitpoints = o->fitpoints;
    h->exchanges = o->exchanges;
    h->window = o->window_us * 1e-6;
    h->barrier_count = o->barrier_count;
    h->batch = o->batch > 0 ? o->batch : 1;
#ifdef MPIGUIDE_TEST_HOOKS
    /* Test builds only: the waits for a start as they once were (unbounded), so that only the
     * watchdog can end a wait a bad model stretches (tests/mpi/bench_clock.cmake) */
    const char *ub = getenv("MPIGUIDE_TEST_CLOCK_UNBOUNDED");
    h->unbounded = ub && !strcmp(ub, "1");
#endif
    /* more ranks on this node than cores: spinning would starve a rank */
    rc = mg_machine_probe(h->hcomm, &h->machine);
    if (rc != MPI_SUCCESS) return rc;
    h->yield = h->machine.over;
    rc = mg_harness_sync_clocks(h, 1);
    if (rc == MPI_SUCCESS && !h->need_clock) rc = measure_slack(h);
    return rc;
}

void mg_harness_free(mg_harness *h) {
    if (h->hcomm != MPI_COMM_NULL && h->hcomm) PMPI_Comm_free(&h->hcomm);
}
