/* What online mode learned, at MPI_Finalize (docs/online.md, docs/dev/interfaces.md sections 4
 * and 8): the ranks of each communicator agree on the call of every cell's decision, rank 0
 * gathers the cells (each from its communicator's rank 0), prints one `#@mpiguide online` line
 * per cell and a summary in the report, and with MPIGUIDE_PROFILES_OUT writes one profile per
 * (collective, communicator size) it decided something for, in the format of src/profile/, so
 * that the next run starts from them. */
#include "online.h"
#include "catalog/catalog.h"
#include "outdir/outdir.h"
#include "profile/profile.h"
#include "runtime/mpi_family.h"
#include "util/diag.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static mg_online_result *all; /* rank 0: every reported cell, sorted */
static int nall, gathered, written = -1;
static double run_s, run_cost_s;

static const char *const dtype_names[] = {
#define MG_DTYPE(N, ...) #N,
#include "catalog/datatypes.def"
#undef MG_DTYPE
};
#define NDTYPES ((int)(sizeof dtype_names / sizeof dtype_names[0]))

void mg_online_result_of(const mg_online_cell *c, int coll, int p, int esize, int opclass,
                         int dtype, int op, int64_t lo, int64_t hi, int64_t msize, int agree,
                         mg_online_result *r) {
    memset(r, 0, sizeof *r);
    int best = mg_online_best(c), dropped = 0;
    for (int i = 0; i < c->ncand; i++)
        dropped += c->cand[i].state != MG_OC_ALIVE && c->cand[i].state != MG_OC_WINNER;
    *r = (mg_online_result){.coll = coll,
                            .p = p,
                            .esize = esize,
                            .opclass = opclass,
                            .dtype = dtype,
                            .op = op,
                            .state = c->state,
                            .winner = c->state == MG_ONLINE_COMMITTED ? c->cand[c->winner].alg : -1,
                            .best = best >= 0 ? c->cand[best].alg : -1,
                            .ncand = c->ncand,
                            .ndropped = dropped,
                            .pauses = c->pauses,
                            .agree = agree,
                            .lo = lo,
                            .hi = hi,
                            .msize = msize,
                            .calls = c->calls,
                            .explored = c->explored,
                            .cand_calls = c->cand_calls,
                            .decided_at = c->decided_at,
                            .cost = c->cost,
                            /* the rule's own view when larger: the default's estimate may
                             * have moved since the last window was planned */
                            .budget = fmax(mg_online_allowance(c, mg_rt.s.online_budget), c->cap),
                            .dhat = c->dhat,
                            .over = c->over,
                            .speedup = best >= 0 ? c->cand[best].est : NAN,
                            .ci_lo = best >= 0 ? c->cand[best].lo : NAN,
                            .ci_hi = best >= 0 ? c->cand[best].hi : NAN};
}

static int by_cell(const void *pa, const void *pb) {
    const mg_online_result *a = pa, *b = pb;
    if (a->coll != b->coll) return a->coll < b->coll ? -1 : 1;
    if (a->p != b->p) return a->p < b->p ? -1 : 1;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->esize != b->esize) return a->esize < b->esize ? -1 : 1;
    return (a->opclass > b->opclass) - (a->opclass < b->opclass);
}

/* Every rank's results on rank 0 (MPI_COMM_WORLD, collective). */
static void gather(void) {
    mg_online_result *mine = NULL;
    int n = 0, size = mg_rt.size, ok = 1;
    if (mg_online_results(&mine, &n)) n = 0;
    int *counts = mg_rt.rank == 0 ? calloc((size_t)size, sizeof *counts) : NULL;
    int *displs = mg_rt.rank == 0 ? calloc((size_t)size, sizeof *displs) : NULL;
    ok = mg_rt.rank != 0 || (counts && displs);
    int bytes = n * (int)sizeof *mine;
    if (PMPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
        ok = 0;
    int64_t total = 0;
    for (int i = 0; ok && mg_rt.rank == 0 && i < size; i++) {
        displs[i] = (int)total;
        total += counts[i];
    }
    if (mg_rt.rank == 0 && ok) {
        ok = total <= INT32_MAX && (all = malloc((size_t)(total ? total : 1))) != NULL;
        nall = (int)(total / (int64_t)sizeof *all);
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok && PMPI_Gatherv(mine, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0,
                           MPI_COMM_WORLD) == MPI_SUCCESS) {
        gathered = mg_rt.rank == 0;
        if (gathered) qsort(all, (size_t)nall, sizeof *all, by_cell);
    } else if (mg_rt.rank == 0) {
        mg_error("libmpiguide", "online mode: no memory to gather the cells; not reported");
        free(all);
        all = NULL;
        nall = 0;
    }
    free(mine);
    free(counts);
    free(displs);
}

static int decided(const mg_online_result *r) {
    return r->state == MG_ONLINE_COMMITTED || r->state == MG_ONLINE_DEFAULT;
}

/* Of cells of one (collective, p, bucket, element size, op class) on several communicators,
 * the one to write: a committed one before the default, then the one with more calls. */
static int better(const mg_online_result *a, const mg_online_result *b) {
    int ca = a->state == MG_ONLINE_COMMITTED, cb = b->state == MG_ONLINE_COMMITTED;
    return ca != cb ? ca > cb : a->calls > b->calls;
}

static int same_group(const mg_online_result *a, const mg_online_result *b) {
    return a->esize == b->esize && a->opclass == b->opclass;
}

/* The profile of one (collective, p): rows [i, j) of `all`. Writes DIR/<MPI_Name>_p<P>.prf;
 * 1 when written, 0 when nothing to write, -1 on an error (reported). */
static int write_one(const char *dir, int i, int j) {
    const mg_online_result *g = NULL;
    uint64_t most = 0;
    /* the element size and op class whose decided cells had the most calls */
    for (int k = i; k < j; k++) {
        if (!decided(&all[k])) continue;
        uint64_t calls = 0;
        for (int m = i; m < j; m++)
            if (decided(&all[m]) && same_group(&all[m], &all[k])) calls += all[m].calls;
        if (calls > most) most = calls, g = &all[k];
    }
    if (!g) return 0;
    int coll = g->coll, p = g->p;
    /* the ranges of the profile this run started from, when it is for the same calls */
    mg_profile_wrange kept[1024];
    int nkept = 0, prof = mg_seltab_find(&mg_rt.sel, coll, p);
    if (prof >= 0) {
        const mg_selprof *P = &mg_rt.sel.prof[prof];
        if ((P->esize && P->esize != g->esize) || P->opclass != g->opclass) return 0;
        if (P->n > sizeof kept / sizeof kept[0]) return 0;
        for (uint32_t r = P->first; r < P->first + P->n; r++)
            kept[nkept++] = (mg_profile_wrange){mg_rt.sel.lo[r], mg_rt.sel.hi[r],
                                                mg_alg_name(mg_rt.sel.alg[r])};
    }
    mg_learned l[64];
    int nl = 0;
    for (int k = i; k < j && nl < 64; k++) {
        const mg_online_result *r = &all[k];
        if (!decided(r) || !same_group(r, g)) continue;
        if (k > i && by_cell(&all[k - 1], r) == 0 && decided(&all[k - 1])) continue;
        const mg_online_result *w = r; /* the best of this cell's communicators */
        for (int m = k + 1; m < j && by_cell(&all[m], r) == 0; m++)
            if (decided(&all[m]) && better(&all[m], w)) w = &all[m];
        int win = w->state == MG_ONLINE_COMMITTED && isfinite(w->speedup) && isfinite(w->ci_lo) &&
                  isfinite(w->ci_hi);
        int v = mg_coll_is_v(coll);
        l[nl++] = (mg_learned){v ? 0 : w->lo,    v ? INT64_MAX : w->hi,
                               v ? 0 : w->msize, win ? mg_alg_name(w->winner) : "default",
                               w->calls,         w->explored,
                               w->cost,          w->ncand,
                               w->speedup,       w->ci_lo,
                               w->ci_hi};
    }
    char date[64] = "";
    time_t now = time(NULL);
    struct tm tmv;
    if (gmtime_r(&now, &tmv)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    const char *op = g->op >= 0 && g->op < MG_NOPS_ALL ? mg_op_names_all[g->op]
                     : g->opclass == MG_OPC_USER       ? "user"
                                                       : "";
    mg_profile_kv prov[] = {
        {"mpi_library", mg_library_version()},
        {"datatype", g->dtype >= 0 && g->dtype < NDTYPES ? dtype_names[g->dtype] : ""},
        {"operation", op},
        {"date", date},
    };
    char *text = mg_profile_learned(mg_coll_name(coll), p, prov, 4, kept, nkept, l, nl);
    char path[4200];
    snprintf(path, sizeof path, "%s/%s_p%d.prf", dir, mg_coll_name(coll), p);
    FILE *f = text ? fopen(path, "w") : NULL;
    int bad = !f || fputs(text, f) < 0;
    if (f && fclose(f)) bad = 1;
    if (bad) mg_error(path, "cannot write the profile online mode learned: %s", strerror(errno));
    free(text);
    return bad ? -1 : 1;
}

/* Rank 0: MPIGUIDE_PROFILES_OUT. */
static void write_profiles(const char *dir) {
    written = 0;
    if (mg_out_mkdir(dir)) {
        mg_error(dir, "cannot create the directory for the profiles online mode learned: %s",
                 strerror(errno));
        return;
    }
    for (int i = 0; i < nall;) {
        int j = i;
        while (j < nall && all[j].coll == all[i].coll && all[j].p == all[i].p) j++;
        written += write_one(dir, i, j) > 0;
        i = j;
    }
}

void mg_online_finish(void) {
    if (mg_report_on) mg_online_agree();
    int out = mg_rt.s.profiles_out[0] != 0;
    if (!mg_report_on && !out) return;
    /* the run's time and cost as rank 0 saw them, for the summary */
    run_s = mg_online_run_time(&run_cost_s);
    gather();
    if (gathered && out) write_profiles(mg_rt.s.profiles_out);
}

static const char *state_name(int s) {
    switch (s) {
    case MG_ONLINE_RACING:
        return "racing";
    case MG_ONLINE_COMMITTED:
        return "committed";
    case MG_ONLINE_DEFAULT:
        return "default";
    case MG_ONLINE_ROTATING:
        return "rotating";
    default:
        return "few_calls";
    }
}

void mg_online_report(FILE *f) {
    if (!gathered) return;
    uint64_t calls = 0, fast = 0, explored = 0;
    double cost = 0, budget = 0;
    int raced = 0, committed = 0, def = 0;
    for (int i = 0; i < nall; i++) {
        const mg_online_result *r = &all[i];
        int red = mg_coll_is_reduction(r->coll);
        const char *op = !red                                ? "-"
                         : r->op >= 0 && r->op < MG_NOPS_ALL ? mg_op_names_all[r->op]
                         : r->opclass == MG_OPC_USER         ? "user"
                                                             : "-";
        const char *dt = !red                                  ? "-"
                         : r->dtype >= 0 && r->dtype < NDTYPES ? dtype_names[r->dtype]
                                                               : "derived";
        fprintf(f,
                "#@mpiguide online %s p=%d bytes=%lld-%lld msize=%lld datatype=%s op=%s "
                "calls=%llu fast=%llu explored=%llu candidate_calls=%llu cost_s=%.4g "
                "budget_s=%.4g over_s=%.4g candidates=%d dropped=%d paused=%d state=%s winner=%s "
                "best=%s "
                "speedup=%.4g "
                "ci95=%.4g..%.4g",
                mg_coll_name(r->coll), r->p, (long long)r->lo, (long long)r->hi,
                (long long)r->msize, dt, op, (unsigned long long)r->calls,
                (unsigned long long)r->fast, (unsigned long long)r->explored,
                (unsigned long long)r->cand_calls, r->cost, r->budget, r->over, r->ncand,
                r->ndropped, r->pauses, state_name(r->state),
                r->state == MG_ONLINE_COMMITTED ? mg_alg_name(r->winner)
                : r->state == MG_ONLINE_DEFAULT ? "default"
                                                : "-",
                r->best >= 0 ? mg_alg_name(r->best) : "-", r->speedup, r->ci_lo, r->ci_hi);
        if (decided(r)) fprintf(f, " after=%llu", (unsigned long long)r->decided_at);
        if (r->agree >= 0) fprintf(f, " ranks_agree=%s", r->agree ? "yes" : "no");
        fputc('\n', f);
        calls += r->calls, fast += r->fast, explored += r->explored, cost += r->cost,
            budget += r->budget;
        raced += r->cand_calls > 0;
        committed += r->state == MG_ONLINE_COMMITTED;
        def += r->state == MG_ONLINE_DEFAULT;
    }
    fprintf(f,
            "#@mpiguide online all cells=%d raced=%d committed=%d default=%d calls=%llu fast=%llu "
            "explored=%llu cost_s=%.4g budget_s=%.4g share=%g run_s=%.4g run_cost_s=%.4g",
            nall, raced, committed, def, (unsigned long long)calls, (unsigned long long)fast,
            (unsigned long long)explored, cost, budget, mg_rt.s.online_budget, run_s, run_cost_s);
    if (written >= 0) fprintf(f, " profiles_written=%d", written);
    fputc('\n', f);
}

void mg_online_end_free(void) {
    free(all);
    all = NULL;
    nall = gathered = 0;
    written = -1;
}
