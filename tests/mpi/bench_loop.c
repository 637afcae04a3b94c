/* The observation loop under every synchronisation method and runtime type: nrep observations
 * when nothing stops it; a time budget and an NREP rule stop every rank after the same
 * observation even when ranks run at different speeds; clock models and the dissemination
 * barrier. Behaviour only: no assertion depends on how long anything took. */
#include "bench/harness.h"
#include "mpitest.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rank, size;

/* The call, and on the last rank a short sleep: ranks reach the decisions at different times. */
static int uneven_run(mg_call *c) {
    int rc = mpiguide_run(c->alg, &c->args, NULL, NULL);
    if (rank == size - 1) usleep(100);
    return rc;
}

/* min and max of a value over the ranks */
static void minmax(int64_t v, int64_t *lo, int64_t *hi) {
    PMPI_Allreduce(&v, lo, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    PMPI_Allreduce(&v, hi, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
}

static void one_method(int sync, int runtime) {
    const char *what = mg_sync_name(sync), *rt = mg_runtime_name(runtime);
    mg_bench_opts o;
    mg_bench_defaults(&o);
    o.sync = sync;
    o.runtime = runtime;
    o.fitpoints = 5;
    o.exchanges = 3;
    mg_harness h;
    int rc = mg_harness_init(&h, MPI_COMM_WORLD, &o);
    mt_check(rc == MPI_SUCCESS, "%s/%s: harness init rc %d", what, rt, rc);
    mt_check(isfinite(h.clock_err) && h.clock_err >= 0 && h.slack > 0, "%s/%s: err %g slack %g",
             what, rt, h.clock_err, h.slack);
    mg_call c;
    char why[200];
    rc = mg_call_setup(&c, MPIGUIDE_COLL_ALLREDUCE,
                       mpiguide_default_algorithm(MPIGUIDE_COLL_ALLREDUCE), 8, MPI_BYTE, MPI_BOR, 0,
                       h.comm, NULL, why, sizeof why);
    mt_check(rc == 0, "%s/%s: call setup: %s", what, rt, why);

    /* 1. nothing stops it: exactly nmax observations, collected on rank 0 */
    mg_obs obs;
    mt_check(mg_obs_alloc(&obs, 30, rank) == 0, "alloc");
    mg_obs_plan plan = {30, 0.0, NULL, 0};
    rc = mg_observe(&h, &c, &plan, &obs);
    int64_t lo, hi;
    minmax(obs.n, &lo, &hi);
    mt_check(rc == MPI_SUCCESS && lo == 30 && hi == 30, "%s/%s: n %lld..%lld, want 30", what, rt,
             (long long)lo, (long long)hi);
    rc = mg_obs_collect(&h, &obs);
    mt_check(rc == MPI_SUCCESS, "%s/%s: collect", what, rt);
    if (rank == 0)
        for (int64_t i = 0; i < obs.n; i++) {
            int barrier = sync == MG_SYNC_MPIBARRIER || sync == MG_SYNC_DISSEMINATION;
            mt_check(obs.runtime[i] >= 0 && isfinite(obs.runtime[i]), "%s/%s: runtime[%lld] = %g",
                     what, rt, (long long)i, obs.runtime[i]);
            mt_check(obs.gflag[i] >= 0 && obs.gflag[i] <= 2 && (!barrier || obs.gflag[i] == 0),
                     "%s/%s: flag[%lld] = %d", what, rt, (long long)i, obs.gflag[i]);
        }
    mg_obs_free(&obs);

    /* 2. a budget on uneven ranks: all stop after the same observation, before nmax */
    c.run = uneven_run;
    mt_check(mg_obs_alloc(&obs, 200000, rank) == 0, "alloc 200000");
    mg_obs_plan budget = {200000, 0.02, NULL, 0};
    rc = mg_observe(&h, &c, &budget, &obs);
    minmax(obs.n, &lo, &hi);
    mt_check(rc == MPI_SUCCESS && lo == hi && lo >= 1 && hi < 200000, "%s/%s: budget: n %lld..%lld",
             what, rt, (long long)lo, (long long)hi);
    rc = mg_obs_collect(&h, &obs);
    mt_check(rc == MPI_SUCCESS, "%s/%s: collect after budget", what, rt);
    mg_obs_free(&obs);

    /* 3. a rule on rank 0 (not for window: its schedule is fixed in advance) */
    if (sync != MG_SYNC_WINDOW) {
        static const struct {
            double thres;
            int64_t min, max, want;
        } rules[] = {{1e9, 7, 100, 7}, {0.0, 2, 12, 12}}; /* always passes; never passes */
        for (int k = 0; k < 2; k++) {
            mg_nrep_rule r;
            mg_nrep_rule_default(&r);
            r.thres[MG_NREP_RSE] = rules[k].thres;
            r.min = rules[k].min, r.max = rules[k].max, r.step = 1;
            mg_nrep_state st;
            if (rank == 0) mg_nrep_begin(&st, &r);
            mt_check(mg_obs_alloc(&obs, r.max, rank) == 0, "alloc rule");
            mg_obs_plan rp = {r.max, 0.0, rank == 0 ? &st : NULL, 1};
            rc = mg_observe(&h, &c, &rp, &obs);
            minmax(obs.n, &lo, &hi);
            /* round-time observations with a missed start are not fed to the rule */
            int ok = sync == MG_SYNC_ROUNDTIME ? lo == hi && lo >= rules[k].want
                                               : lo == rules[k].want && hi == rules[k].want;
            mt_check(rc == MPI_SUCCESS && ok, "%s/%s: rule %d: n %lld..%lld, want %lld", what, rt,
                     k, (long long)lo, (long long)hi, (long long)rules[k].want);
            if (rank == 0) mg_nrep_end(&st);
            mg_obs_free(&obs);
        }
    }
    mg_call_free(&c);
    mg_harness_free(&h);
}

static void clocks(void) {
    mg_clock_model m;
    double err = -1, rejected = -1;
    int rc = mg_clock_sync(MPI_COMM_WORLD, 6, 4, size > 2, &m, &err, &rejected);
    mt_check(rc == MPI_SUCCESS && isfinite(err) && err >= 0, "clock sync rc %d err %g", rc, err);
    mt_check(fabs(m.b) <= MG_CLOCK_DRIFT_MAX && isfinite(rejected), "drift %g within the bound",
             m.b);
    if (rank == 0) mt_check(m.a == 0 && m.b == 0, "rank 0 is the reference: a %g b %g", m.a, m.b);
    double all[2] = {err, -err}, out[2];
    PMPI_Allreduce(all, out, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    mt_check(out[0] == -out[1], "every rank reports the same error");
    double t = MPI_Wtime();
    mt_check(mg_clock_apply(&m, t + 1.0) > mg_clock_apply(&m, t), "global time increases");
    /* ranks on one machine share a clock: the offset is small */
    mt_check(fabs(mg_clock_apply(&m, t) - t) < 0.01, "offset %g on one host",
             mg_clock_apply(&m, t) - t);
}

static void barriers(void) {
    for (int n = 1; n <= size; n++) {
        MPI_Comm sub;
        PMPI_Comm_split(MPI_COMM_WORLD, rank < n ? 0 : MPI_UNDEFINED, rank, &sub);
        if (sub != MPI_COMM_NULL) {
            for (int k = 0; k < 5; k++)
                mt_check(mg_dissemination_barrier(sub, rank, n) == MPI_SUCCESS,
                         "dissemination barrier of %d", n);
            PMPI_Comm_free(&sub);
        }
    }
}

int main(int argc, char **argv) {
    mt_init(&argc, &argv);
    rank = mt_rank();
    size = mt_size();
    mpiguide_init();
    barriers();
    clocks();
    for (int s = 0; s < MG_SYNC_COUNT; s++)
        for (int r = 0; r < 2; r++) one_method(s, r);
    return mt_finish();
}
