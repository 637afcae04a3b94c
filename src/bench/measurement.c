/* The steps of one measurement that both a plain run (run.c) and interleaved rounds
 * (interleave.c) take: the harness it runs on, opening it (call and buffers, the probe that the
 * algorithm runs itself, --verify, warm-up) and writing its rows and --summary line. */
#include "declines.h"
#include "harness.h"
#include "measurement_summary.h"
#include "model/problems.h"
#include "runstate.h"
#include "skips.h"
#include "table.h"
#include "watchdog.h"
#include <stdlib.h>
#include <string.h>

typedef mg_runstate runstate;

static void print_summary(runstate *rs, const mg_job *j, const double *rt, const int *flag,
                          int64_t n_obs) {
    unsigned m = rs->o->summary;
    if (!rs->summary_header) {
        printf("# test alg msize n_valid%s%s%s%s\n", m & MG_SUMMARY_MIN ? " min" : "",
               m & MG_SUMMARY_MEDIAN ? " median ci95_lo ci95_hi" : "",
               m & MG_SUMMARY_MEAN ? " mean" : "", m & MG_SUMMARY_MAX ? " max" : "");
        rs->summary_header = 1;
    }
    double *v = malloc(sizeof(double) * (size_t)(n_obs ? n_obs : 1));
    if (!v) return;
    size_t n = 0;
    for (int64_t i = 0; i < n_obs; i++)
        if (flag[i] == 0) v[n++] = rt[i];
    mg_bench_summary s;
    mg_bench_summarize(v, n, &s);
    printf("%s %s %lld %zu", mpiguide_collective_name(j->coll), j->algname, (long long)j->msize, n);
    if (m & MG_SUMMARY_MIN) printf(" %.10f", s.min);
    if (m & MG_SUMMARY_MEDIAN) printf(" %.10f %.10f %.10f", s.median, s.ci_lo, s.ci_hi);
    if (m & MG_SUMMARY_MEAN) printf(" %.10f", s.mean);
    if (m & MG_SUMMARY_MAX) printf(" %.10f", s.max);
    printf("\n");
    fflush(stdout);
    free(v);
}

/* Per-rank counts of an irregular problem (NULL: regular counts): for Gatherv, Scatterv and
 * Alltoallv from the base block b = msize / 4 MPI_INTs; for Allgatherv, whose msize is the
 * whole vector, counts of the type adding up to msize in elements of --datatype. A --table
 * measurement carries its own problem type. */
static int64_t *problem_counts(const runstate *rs, const mg_job *j, int p) {
    const mg_bench_opts *o = rs->o;
    int by_b = mg_bench_irregular_b(j->coll),
        total = mg_coll_blocking(j->coll) == MPIGUIDE_COLL_ALLGATHERV;
    if (!o->irregular[0] || (!by_b && !total)) return NULL;
    int64_t *counts = malloc(sizeof(int64_t) * (size_t)p);
    int type = j->table_cell ? j->problem : mg_problem_parse(o->irregular), ts = 1;
    if (counts && by_b)
        mg_problem_counts(type, p, j->msize / (int64_t)sizeof(int), o->rho, rs->seed, counts);
    else if (counts && PMPI_Type_size(rs->type, &ts) == MPI_SUCCESS && ts > 0)
        mg_problem_counts_total(type, p, j->msize / ts, o->rho, rs->seed, counts);
    return counts;
}

/* A candidate that declined j's arguments: into the launch's tally (one line at its end) and
 * the raw data (`#@declined=COLL ALG MSIZE WHY`, listed in summary.txt); rank 0, which writes. */
static void note_declined(runstate *rs, const mg_harness *h, const mg_job *j, const char *why) {
    if (h->rank != 0) return;
    const char *cname = mpiguide_collective_name(j->coll);
    mg_declines_note(mg_declines_launch(), cname, j->algname, why);
    if (!rs->write_raw) return;
    char line[400];
    snprintf(line, sizeof line, "#@declined=%s %s %lld %s\n", cname, j->algname,
             (long long)j->msize, why);
    if (mg_raw_write_text(&rs->w, line)) {
        mg_say(0, 1, rs->o->output_file ? rs->o->output_file : "stdout", "write failed");
        rs->exit = 1;
    }
}

void mg_meas_skipped(runstate *rs, int rank, const mg_job *j, const char *why) {
    if (rank != 0) return;
    mg_skipped s = {"", "", "", j->msize};
    snprintf(s.coll, sizeof s.coll, "%s", mpiguide_collective_name(j->coll));
    snprintf(s.alg, sizeof s.alg, "%s", j->algname);
    snprintf(s.why, sizeof s.why, "%s", why);
    mg_progress_clear(&rs->pr);
    mg_say(0, 0, s.coll, "%s %lld skipped: %s", s.alg, s.msize, why);
    const char *file = rs->o->output_file ? rs->o->output_file : "standard output";
    mg_skips_note(mg_skips_launch(), s.coll, s.msize, rs->write_raw ? file : "no raw data");
    char line[512];
    mg_skipped_text(&s, line, sizeof line);
    if (rs->write_raw && mg_raw_write_text(&rs->w, line)) {
        mg_say(0, 1, file, "write failed");
        rs->exit = 1;
    }
}

mg_harness *mg_meas_harness(runstate *rs, const mg_job *j) {
    for (int k = 0; k < rs->nsub; k++)
        if (rs->sub[k].q == j->q) return rs->sub[k].member ? &rs->sub[k].h : NULL;
    return &rs->h;
}

int mg_meas_open(runstate *rs, const mg_job *j, int64_t obs_cap, mg_call *c, mg_obs *obs,
                 int *ready) {
    mg_harness *h = mg_meas_harness(rs, j);
    *ready = 0;
    if (!h) return MPI_SUCCESS; /* not in this sub-communicator */
    const mg_bench_opts *o = rs->o;
    int rooted = mg_coll_is_rooted(j->coll), seq = rooted && (o->roots_rotate || o->nroots);
    const char *cname = mpiguide_collective_name(j->coll);
    mg_watchdog_meas(cname, j->algname, j->msize);
    mg_watchdog_kick(MG_WD_SETUP);
    char why[200] = "", where[300];
    snprintf(where, sizeof where, "%s %s %lld", cname, j->algname, (long long)j->msize);
    int irregular = j->table_cell || (o->irregular[0] && mg_bench_irregular_b(j->coll));
    int64_t *vcounts = problem_counts(rs, j, h->p);
    int setup = mg_call_setup(c, j->coll, j->alg, j->msize, irregular ? MPI_INT : rs->type, rs->op,
                              seq ? -1 : o->root, h->comm, vcounts, why, sizeof why),
        bad = setup != 0;
    if (!bad && seq) {
        c->roots = o->roots_rotate ? rs->rotate : o->roots;
        c->nroots = o->roots_rotate ? h->p : o->nroots;
        c->args.root = c->roots[0];
    }
    free(vcounts);
    int obs_bad = bad || mg_obs_alloc(obs, obs_cap, h->rank) != 0;
    /* 2: a limit of the arguments (the same on every rank), 1: memory ran out on some rank */
    int state = setup == -1 ? 2 : obs_bad, worst;
    PMPI_Allreduce(&state, &worst, 1, MPI_INT, MPI_MAX, h->hcomm);
    if (worst) {
        if (!bad) mg_call_free(c);
        if (!obs_bad) mg_obs_free(obs);
        if (worst == 1) {
            mg_meas_skipped(rs, h->rank, j,
                            bad       ? why
                            : obs_bad ? "out of memory for the observation arrays"
                                      : "out of memory on another rank");
            return MPI_SUCCESS;
        }
        mg_progress_clear(&rs->pr);
        mg_say(h->rank, 0, where, "skipped: %s", why);
        return MPI_SUCCESS;
    }

    /* probe: does the algorithm itself run (the decision is the same on every rank)? */
    int outcome = MPIGUIDE_RAN_DEFAULT;
    unsigned declined = 0;
    int rc = j->alg == MG_CALL_TUNED ? c->run(c) : mg_call_probe(c, &outcome, &declined);
    if (rc == MPI_SUCCESS && j->alg >= 0 && j->alg != mpiguide_default_algorithm(j->coll) &&
        outcome != MPIGUIDE_RAN_MOCKUP) {
        const char *why_ran =
            outcome == MPIGUIDE_FALLBACK_MEMORY    ? "scratch need beyond size_msg_buffer_bytes"
            : outcome == MPIGUIDE_FALLBACK_OFF     ? "mpiguide is not initialised"
            : outcome == MPIGUIDE_FALLBACK_LIBRARY ? "the library algorithm could not be set up on "
                                                     "this communicator"
                                                   : "the algorithm declines these arguments";
        note_declined(rs, h, j, why_ran);
        goto fail;
    }
    if (rc == MPI_SUCCESS && o->verify && j->alg != mpiguide_default_algorithm(j->coll)) {
        int bad_rank;
        rc = mg_call_verify(c, h->rank, &bad_rank);
        if (rc == MPI_SUCCESS && h->rank == 0) {
            mg_progress_clear(&rs->pr);
            if (bad_rank < 0) {
                fprintf(stderr, "mpiguide: verify: %s: pass\n", where);
            } else {
                mg_say(0, 1, where, "verify: result differs from the default on rank %d", bad_rank);
                rs->exit = 1;
            }
        }
    }
    for (int64_t i = 1; rc == MPI_SUCCESS && i < o->warmup; i++) rc = c->run(c);
    if (rc != MPI_SUCCESS) goto fail;
    *ready = 1;
    return MPI_SUCCESS;
fail:
    mg_call_free(c);
    mg_obs_free(obs);
    return rc;
}

void mg_meas_write(runstate *rs, const mg_job *j, const double *rt, const int *flag, int64_t n) {
    const mg_bench_opts *o = rs->o;
    const char *label = j->table_cell ? mg_irrtab_label(rs->table, j) : NULL;
    /* what went wrong with the clocks since the last rows (`#@clock_sync=` lines) */
    char clock[256];
    mg_harness *h = mg_meas_harness(rs, j);
    if (h) mg_clock_events_text(h, clock, sizeof clock);
    if (rs->write_raw && h && clock[0] && mg_raw_write_text(&rs->w, clock)) {
        mg_say(0, 1, o->output_file ? o->output_file : "stdout", "write failed");
        rs->exit = 1;
    }
    if (rs->write_raw && ((label && mg_raw_write_text(&rs->w, label)) ||
                          mg_raw_write_meas(&rs->w, mpiguide_collective_name(j->coll), j->algname,
                                            j->msize, rt, flag, n, j->q))) {
        mg_say(0, 1, o->output_file ? o->output_file : "stdout", "write failed");
        rs->exit = 1;
    }
    if (o->summary) print_summary(rs, j, rt, flag, n);
    if (j->table_cell) mg_irrtab_note(rs->table, j, rt, flag, n);
}
