/* `mpiguide nrep`: predicts per (call, msize) how many observations give a reproducible result
 * and writes `test msize nrep` rows. Rank 0 evaluates the rules on the runtimes it collects and
 * broadcasts each decision; the other ranks only measure. */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"
#include "harness.h"
#include "watchdog.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nrepctx {
    const mg_nrep_opts *no;
    mg_harness h;
    MPI_Datatype type;
    MPI_Op op;
} nrepctx;

/* Sets up the call and makes the unrecorded calls; 1 when the algorithm does not run itself
 * (skipped), -1 on failure, 0 when ready. Same answer on every rank. */
static int prepare(nrepctx *x, const mg_job *j, int64_t msize, mg_call *c) {
    const mg_bench_opts *o = &x->no->bench;
    char why[200] = "";
    mg_watchdog_meas(mpiguide_collective_name(j->coll), j->algname, msize);
    mg_watchdog_kick(MG_WD_SETUP);
    int bad = mg_call_setup(c, j->coll, j->alg, msize, x->type, x->op, o->root, x->h.comm, NULL,
                            why, sizeof why) != 0,
        any;
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, x->h.hcomm);
    if (any) {
        mg_say(x->h.rank, 0, mpiguide_collective_name(j->coll), "%s %lld skipped: %s", j->algname,
               (long long)msize, why[0] ? why : "set-up failed on another rank");
        mg_call_free(c);
        return 1;
    }
    int outcome = MPIGUIDE_RAN_DEFAULT, rc;
    rc = j->alg == MG_CALL_TUNED ? c->run(c) : mg_call_probe(c, &outcome, NULL);
    if (rc == MPI_SUCCESS && j->alg >= 0 && j->alg != mpiguide_default_algorithm(j->coll) &&
        outcome != MPIGUIDE_RAN_MOCKUP) {
        mg_say(x->h.rank, 0, mpiguide_collective_name(j->coll),
               "%s %lld skipped: the default would run instead", j->algname, (long long)msize);
        mg_call_free(c);
        return 1;
    }
    for (int64_t i = 1; rc == MPI_SUCCESS && i < o->warmup; i++) rc = c->run(c);
    if (rc != MPI_SUCCESS) mg_call_free(c);
    return rc == MPI_SUCCESS ? 0 : -1;
}

/* Runs observations until the rule (on rank 0) stops them or the time budget of one
 * prediction (--rt-bench-time-ms) is spent; *n: the valid observations fed to the rule, *sum:
 * their total time (rank 0; broadcast). A prediction cut by the budget is what was observed,
 * with a warning naming `what`: without the budget, a rule that never holds on a loaded machine
 * ran to the maximum count, each round-time observation waiting tens of ms for its start. */
static int run_rule(nrepctx *x, mg_call *c, const mg_nrep_rule *rule, const char *what, int64_t *n,
                    double *sum) {
    mg_nrep_state st;
    mg_obs obs;
    int bad = mg_obs_alloc(&obs, rule->max, x->h.rank) != 0;
    if (x->h.rank == 0 && !bad) bad = mg_nrep_begin(&st, rule) != 0;
    int any;
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, x->h.hcomm);
    if (any) return MPI_ERR_NO_MEM;
    double budget = x->no->bench.time_ms / 1000.0;
    mg_obs_plan plan = {rule->max, budget, x->h.rank == 0 ? &st : NULL, 1};
    double t0 = MPI_Wtime();
    int rc = mg_observe(&x->h, c, &plan, &obs);
    int cut = MPI_Wtime() - t0 >= budget; /* rank 0 took the stop decision on this clock */
    double res[2] = {0.0, 0.0};
    if (x->h.rank == 0) {
        res[0] = (double)st.n;
        res[1] = st.mean * (double)st.n;
        if (rc == MPI_SUCCESS && !st.done && cut)
            mg_say(0, 0, what,
                   "the rule did not hold within the time budget of %g ms (--rt-bench-time-ms); "
                   "predicted %lld, the valid observations made",
                   x->no->bench.time_ms, (long long)st.n);
        mg_nrep_end(&st);
    }
    mg_obs_free(&obs);
    if (rc == MPI_SUCCESS) rc = PMPI_Bcast(res, 2, MPI_DOUBLE, 0, x->h.hcomm);
    *n = (int64_t)res[0];
    *sum = res[1];
    return rc;
}

/* HPC Asia step 2: batch b1, batch b2 when the first one's RSE is not below the threshold; l
 * is the minimum valid latency (broadcast). */
static int asia_latency(nrepctx *x, mg_call *c, double *l) {
    const mg_nrep_opts *no = x->no;
    mg_obs obs;
    int64_t cap = no->b1 + no->b2;
    int bad = mg_obs_alloc(&obs, cap, x->h.rank) != 0, any;
    PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, x->h.hcomm);
    if (any) return MPI_ERR_NO_MEM;
    double best = INFINITY, *v = x->h.rank == 0 ? malloc(sizeof(double) * (size_t)cap) : NULL;
    int rc = MPI_SUCCESS;
    int64_t nv = 0;
    for (int batch = 0; batch < 2 && rc == MPI_SUCCESS; batch++) {
        mg_obs_plan plan = {batch == 0 ? no->b1 : no->b2, 0.0, NULL, 0};
        if (plan.nmax == 0) break;
        rc = mg_observe(&x->h, c, &plan, &obs);
        if (rc == MPI_SUCCESS) rc = mg_obs_collect(&x->h, &obs);
        int more = 0;
        if (rc == MPI_SUCCESS && x->h.rank == 0) {
            for (int64_t i = 0; i < obs.n; i++) {
                if (obs.gflag[i]) continue;
                if (v) v[nv++] = obs.runtime[i];
                if (obs.runtime[i] < best) best = obs.runtime[i];
            }
            more = batch == 0 && v && mg_nrep_asia_second_batch(v, (size_t)nv, no->batch_thres);
        }
        if (rc == MPI_SUCCESS) rc = PMPI_Bcast(&more, 1, MPI_INT, 0, x->h.hcomm);
        if (!more) break;
    }
    free(v);
    mg_obs_free(&obs);
    if (rc == MPI_SUCCESS) rc = PMPI_Bcast(&best, 1, MPI_DOUBLE, 0, x->h.hcomm);
    *l = best;
    return rc;
}

/* HPC Asia step 1: t1, the time the smallest message needs until its RSE is below the
 * threshold (the maximum over --predictions). Per (call, algorithm). */
static int asia_t1(nrepctx *x, const mg_job *j, double *t1) {
    mg_call c;
    int64_t smallest = mg_dtype_size(x->no->bench.datatype);
    if (mg_coll_blocking(j->coll) == MPIGUIDE_COLL_BARRIER) smallest = 0;
    int r = prepare(x, j, smallest, &c);
    if (r) return r < 0 ? MPI_ERR_OTHER : MPI_SUCCESS;
    mg_nrep_rule rule = x->no->rule;
    rule.methods = 1u << MG_NREP_RSE;
    rule.thres[MG_NREP_RSE] = x->no->t1_thres;
    rule.step = 1;
    int rc = MPI_SUCCESS;
    *t1 = 0.0;
    for (int k = 0; k < x->no->predictions && rc == MPI_SUCCESS; k++) {
        int64_t n;
        double sum = 0.0;
        char what[300];
        snprintf(what, sizeof what, "%s %s %lld (t1 phase)", mpiguide_collective_name(j->coll),
                 j->algname, (long long)smallest);
        rc = mg_harness_sync_clocks(&x->h, 0);
        if (rc == MPI_SUCCESS) rc = run_rule(x, &c, &rule, what, &n, &sum);
        if (sum > *t1) *t1 = sum;
    }
    mg_call_free(&c);
    return rc;
}

/* One (call, algorithm, msize): the predicted nrep (0 when the algorithm was skipped). */
static int predict(nrepctx *x, const mg_job *j, double t1, int64_t *nrep) {
    mg_call c;
    *nrep = 0;
    int r = prepare(x, j, j->msize, &c);
    if (r) return r < 0 ? MPI_ERR_OTHER : MPI_SUCCESS;
    int rc = MPI_SUCCESS;
    for (int k = 0; k < x->no->predictions && rc == MPI_SUCCESS; k++) {
        int64_t n = 0;
        rc = mg_harness_sync_clocks(&x->h, 0);
        if (rc != MPI_SUCCESS) break;
        if (x->no->hpcasia) {
            double l = 0.0;
            rc = asia_latency(x, &c, &l);
            n = mg_nrep_asia(t1, l, x->no->k, x->no->rule.max);
        } else {
            double sum;
            char what[300];
            snprintf(what, sizeof what, "%s %s %lld", mpiguide_collective_name(j->coll), j->algname,
                     (long long)j->msize);
            rc = run_rule(x, &c, &x->no->rule, what, &n, &sum);
        }
        if (n > *nrep) *nrep = n;
    }
    mg_call_free(&c);
    return rc;
}

static int nrep_run(const mg_nrep_opts *no);

/* The run under the watchdog (watchdog.h), as bench's. */
int mg_nrep_run(const mg_nrep_opts *no) {
    if (mg_watchdog_begin(no->bench.watchdog_s, "nrep")) return 2;
    int st = nrep_run(no);
    mg_watchdog_stop();
    return st;
}

static int nrep_run(const mg_nrep_opts *no) {
    const mg_bench_opts *o = &no->bench;
    int rank, p, st = 0;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &p);
    if (o->root >= p) {
        mg_say(rank, 1, "--root", "%d is not a rank of %d processes", o->root, p);
        return 2;
    }
    nrepctx x;
    memset(&x, 0, sizeof x);
    x.no = no;
    x.type = mg_bench_datatype(o->datatype);
    x.op = mg_bench_op(o->op);
    mg_joblist jobs = {0, 0, NULL};
    if ((st = mg_build_jobs(o, NULL, &jobs, rank))) {
        free(jobs.v);
        return st;
    }
    if (mg_harness_init(&x.h, MPI_COMM_WORLD, o) != MPI_SUCCESS) {
        mg_say(rank, 1, "nrep", "synchronisation set-up failed");
        free(jobs.v);
        return 1;
    }
    char *header = malloc(8192);
    mg_raw_writer w;
    memset(&w, 0, sizeof w);
    if (header && mg_bench_header(&x.h, o, 0, NULL, header, 8192) != MPI_SUCCESS) st = 1;
    if (rank == 0) {
        if (mg_raw_open(&w, o->output_file, 0, 0)) {
            mg_say(0, 1, o->output_file, "cannot open the output file (--output-file)");
            st = 2;
        } else if (header) {
            /* method first, then the run's description */
            char *m = NULL;
            size_t ml = 0;
            FILE *mf = open_memstream(&m, &ml);
            if (mf) {
                mg_nrep_write_method(mf, no);
                fclose(mf);
            }
            if ((m && mg_raw_write_text(&w, m)) || mg_raw_write_text(&w, header)) st = 1;
            free(m);
        }
        if (!st) mg_watchdog_output(w.fd);
    }
    free(header);
    PMPI_Bcast(&st, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mg_progress pr;
    mg_progress_begin(&pr, jobs.n, o->quiet, rank);
    /* jobs are (call, msize, algorithm): a row per (call, msize), the maximum over algorithms */
    /* hpcasia: t1 per (call, algorithm), kept while the call stays the same */
    int nslots = mpiguide_algorithm_count() + 3, t1_coll = -1;
    double *t1s = malloc(sizeof(double) * (size_t)nslots);
    if (!t1s) st = 1;
    for (int k = 0; !st && k < jobs.n;) {
        int coll = jobs.v[k].coll;
        int64_t msize = jobs.v[k].msize, best = 0;
        for (; !st && k < jobs.n && jobs.v[k].coll == coll && jobs.v[k].msize == msize; k++) {
            const mg_job *j = &jobs.v[k];
            mg_progress_step(&pr, mpiguide_collective_name(coll), j->algname, msize);
            int rc = MPI_SUCCESS, slot = j->alg + 2; /* alg >= MG_CALL_TUNED = -2 */
            if (t1_coll != coll)
                for (int i = 0; i < nslots; i++) t1s[i] = -1.0;
            t1_coll = coll;
            if (no->hpcasia && t1s[slot] < 0.0) rc = asia_t1(&x, j, &t1s[slot]);
            int64_t n = 0;
            if (rc == MPI_SUCCESS) rc = predict(&x, j, t1s[slot], &n);
            if (rc != MPI_SUCCESS) {
                mg_say(rank, 1, "nrep", "an MPI call failed; stopping");
                st = 1;
            }
            if (n > best) best = n;
            pr.done++;
        }
        if (!st && rank == 0 && best > 0) {
            char row[160];
            snprintf(row, sizeof row, "%s %lld %lld\n", mpiguide_collective_name(coll),
                     (long long)msize, (long long)best);
            if (mg_raw_write_text(&w, row)) st = 1;
        }
    }
    mg_progress_end(&pr);
    free(t1s);
    PMPI_Allreduce(MPI_IN_PLACE, &st, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) mg_raw_close(&w);
    mg_harness_free(&x.h);
    free(jobs.v);
    return st;
}
