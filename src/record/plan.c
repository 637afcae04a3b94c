/* The planner of plan.h: rows of the record, most time first, until the share --cover of the
 * recorded collective time is reached, most calls first until that share of the calls is, and
 * every row, and every group of rows of one element size and op class, with a notable share of
 * either; one input line per (collective, communicator size, element size and op class) with
 * the sizes of its rows, the powers of two around them, and the conditions the application
 * called it under. Each line becomes a profile of its own (several per collective and size
 * apply side by side, src/profile/seltab.h). */
#include "plan.h"
#include "catalog/catalog.h"
#include "util/sbuf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mg_plan_defaults(mg_plan_opts *o) {
    o->cover = 0.95;
    o->np = 0;
    o->mpi = NULL;
    o->nrep = 100;
    o->time_ms = 500;
    o->batch = 8;
}

/* ---- datatypes and ops the benchmark can measure ---- */

/* Names an application may use that the benchmark knows under another name: the STANDIN column
 * of catalog/datatypes.def (SELF and NONE rows are skipped where it is read). */
static const struct {
    const char *name, *bench;
} type_alias[] = {
#define MG_DTYPE(N, SIZE, CAT, RT, STANDIN) {#N, #STANDIN},
#include "catalog/datatypes.def"
#undef MG_DTYPE
};

/* A benchmark type of the element size: floating point where the op is arithmetic. */
static const char *type_of_size(int esize, int opclass) {
    switch (esize) {
    case 1:
        return opclass ? "MPI_SIGNED_CHAR" : "MPI_BYTE";
    case 2:
        return "MPI_SHORT";
    case 4:
        return opclass == MG_OPC_ARITH || opclass == MG_OPC_MINMAX ? "MPI_FLOAT" : "MPI_INT";
    case 8:
        return opclass == MG_OPC_ARITH || opclass == MG_OPC_MINMAX || !opclass ? "MPI_DOUBLE"
                                                                               : "MPI_LONG_LONG";
    default:
        return NULL;
    }
}

/* The op of the class the benchmark measures with (classes it cannot measure: the nearest). */
static const char *op_of_class(int opclass) {
    switch (opclass) {
    case MG_OPC_MINMAX:
    case MG_OPC_LOC:
        return "MPI_MAX";
    case MG_OPC_LOGIC:
        return "MPI_LAND";
    case MG_OPC_BIT:
        return "MPI_BOR";
    default:
        return "MPI_SUM";
    }
}

int mg_plan_bench_type(const char *datatype, int esize, const char *op, int reduction,
                       const char **type, const char **bop) {
    int opclass = reduction ? mg_op_class(op) : MG_OPC_NONE;
    *bop = NULL;
    *type = mg_dtype_size(datatype) ? datatype : NULL;
    for (size_t i = 0; !*type && i < sizeof type_alias / sizeof type_alias[0]; i++)
        if (!strcmp(datatype, type_alias[i].name) && strcmp(type_alias[i].bench, "SELF") &&
            strcmp(type_alias[i].bench, "NONE"))
            *type = type_alias[i].bench;
    if (!*type) *type = type_of_size(esize, opclass);
    if (!*type) *type = "MPI_BYTE"; /* no type of that size: bytes, and only MATCH=size applies */
    if (reduction) {
        *bop = mg_op_known(op) ? op : op_of_class(opclass);
        if (!mg_op_allowed(*bop, *type)) *type = type_of_size(mg_dtype_size(*type), MG_OPC_BIT);
        if (!*type || !mg_op_allowed(*bop, *type)) *type = "MPI_INT", *bop = "MPI_SUM";
    }
    int same_class = !reduction || mg_op_class(*bop) == opclass;
    return mg_dtype_size(*type) == esize && same_class;
}

/* ---- the plan ---- */

typedef struct prow {
    const mg_rec_row *w;
    int picked;
    const char *type, *op; /* what the benchmark measures for it */
    int exact;             /* same element size and op class as recorded */
    int esize, opclass;    /* of type and op: which profile would apply to its calls */
} prow;

/* The rows of (coll, p) of one element size and op class (of what the benchmark measures): one
 * line, one profile. */
typedef struct pgroup {
    int coll, p, esize, opclass;
    double time, calls;
} pgroup;

static int same_group(const pgroup *g, const prow *r) {
    return g->coll == r->w->coll && g->p == r->w->p && g->esize == r->esize &&
           g->opclass == r->opclass;
}

static int by_time(const void *a, const void *b) {
    const prow *x = a, *y = b;
    if (x->w->time_s != y->w->time_s) return x->w->time_s < y->w->time_s ? 1 : -1;
    return x->w->line - y->w->line;
}

static int by_rcalls(const void *a, const void *b) {
    const prow *x = a, *y = b;
    if (x->w->calls != y->w->calls) return x->w->calls < y->w->calls ? 1 : -1;
    return x->w->line - y->w->line;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int add_size(int64_t *v, int n, int cap, int64_t m, int esize) {
    if (m < 0 || m > (int64_t)1 << 40 || (esize > 0 && m % esize) || n >= cap) return n;
    for (int i = 0; i < n; i++)
        if (v[i] == m) return n;
    v[n++] = m;
    return n;
}

/* The powers of two around m (m itself when it is one). */
static void pow2_around(int64_t m, int64_t *lo, int64_t *hi) {
    int64_t l, h;
    mg_rec_bucket(m, &l, &h);
    *lo = l;
    *hi = m == l ? l : (h < INT64_MAX ? h + 1 : h);
}

typedef struct line_acc { /* one (collective, p, element size, op class) of the plan */
    int coll, p, esize, opclass;
    const char *type, *op; /* the conditions of its row with the most time */
    int exact;             /* the profile will apply to that row's calls */
    double time;
    uint64_t calls, b2b, rotations, rcalls, roots_other;
    mg_rec_root roots[MG_REC_ROOTS * 4];
    int nroots;
    int64_t sizes[256];
    int nsizes;
    uint64_t spread[MG_PROBLEM_COUNT]; /* v-collectives: the shapes of the counts */
    int64_t block;                     /* ... and the largest block */
    int64_t totals[MG_REC_SIZES * 4];  /* ... the recorded totals, bytes */
    int ntotals;
} line_acc;

static void add_roots(line_acc *l, const mg_rec_row *w) {
    l->rotations += w->rotations;
    l->rcalls += w->calls;
    l->roots_other += w->roots_other;
    for (int i = 0; i < w->nroots; i++) {
        int k = 0;
        while (k < l->nroots && l->roots[k].root != w->roots[i].root) k++;
        if (k == l->nroots) {
            if (k == (int)(sizeof l->roots / sizeof l->roots[0])) {
                l->roots_other += w->roots[i].calls;
                continue;
            }
            l->roots[l->nroots++] = (mg_rec_root){w->roots[i].root, 0};
        }
        l->roots[k].calls += w->roots[i].calls;
    }
}

/* The shapes, largest block and totals of a v-collective's rows. */
static void add_v(line_acc *l, const mg_rec_row *w) {
    for (int t = 0; t < MG_PROBLEM_COUNT; t++) l->spread[t] += w->spread[t];
    if (w->block > l->block) l->block = w->block;
    int cap = (int)(sizeof l->totals / sizeof l->totals[0]);
    for (int z = 0; z < w->nsizes && l->ntotals < cap; z++)
        l->totals[l->ntotals++] = w->sizes[z].msize;
}

/* The problem type most of a line's calls had (same when none was seen). */
static int main_shape(const line_acc *l) {
    int best = MG_PROBLEM_SAME;
    for (int t = 0; t < MG_PROBLEM_COUNT; t++)
        if (l->spread[t] > l->spread[best]) best = t;
    return best;
}

/* Gatherv, Scatterv, Alltoallv are measured with a problem type of base block b MPI_INTs
 * (msize 4 b): for each recorded total the b whose problem has that total, or without totals
 * (no rank saw every count) the largest block as b. */
static void v_sizes(line_acc *l, int shape) {
    int cap = (int)(sizeof l->sizes / sizeof l->sizes[0]);
    for (int i = 0; i < l->ntotals; i++) {
        int64_t ints = l->totals[i] / (int64_t)sizeof(int);
        if (ints <= 0) continue;
        int64_t b = mg_problem_base(shape, l->p, ints, 5.0, 1);
        l->nsizes = add_size(l->sizes, l->nsizes, cap, b * (int64_t)sizeof(int), 0);
    }
    if (!l->nsizes) {
        int64_t b = l->block / (int64_t)sizeof(int);
        l->nsizes = add_size(l->sizes, l->nsizes, cap, (b > 1 ? b : 1) * (int64_t)sizeof(int), 0);
    }
}

static int by_calls(const void *a, const void *b) {
    const mg_rec_root *x = a, *y = b;
    return x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : x->root - y->root;
}

/* The --roots/--root option of a line: one root, the rotation, or the roots seen. An irregular
 * line names even root 0 (the benchmark's problem types default to floor(p/2)). */
static void roots_option(mg_sbuf *b, line_acc *l, int always) {
    if (!l->nroots) return;
    if (l->nroots == 1 && !l->roots_other) {
        if (l->roots[0].root || always) mg_sbuf_printf(b, " --root=%d", l->roots[0].root);
        return;
    }
    if (l->rcalls > 1 && 2 * l->rotations >= l->rcalls) {
        mg_sbuf_printf(b, " --roots=rotate");
        return;
    }
    qsort(l->roots, (size_t)l->nroots, sizeof l->roots[0], by_calls);
    int n = l->nroots < 8 ? l->nroots : 8;
    mg_sbuf_printf(b, " --roots=");
    for (int i = 0; i < n; i++) mg_sbuf_printf(b, "%s%d", i ? "," : "", l->roots[i].root);
}

static int fail(char *err, size_t errlen, const char *rname, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(char *err, size_t errlen, const char *rname, const char *fmt, ...) {
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(err, errlen, "%s: %s", rname, what);
    return 2;
}

int mg_plan_from_record(const mg_record *r, const char *rname, const mg_plan_opts *o, char **text,
                        char *warn, size_t warnlen, char *err, size_t errlen) {
    *text = NULL;
    warn[0] = 0;
    const char *kind = mg_library_kind(r->mpi_library);
    if (o->mpi && strcmp(kind, "unknown") && strcmp(kind, o->mpi))
        return fail(err, errlen, rname,
                    "recorded under %s (%.120s); this mpiguide is built for %s: plan and tune "
                    "with mpiguide-%s, under the MPI the application ran with",
                    kind, r->mpi_library, o->mpi, kind);
    int np = o->np ? o->np : r->nprocs, pmax = 0;
    const mg_rec_row *widest = NULL;
    for (int i = 0; i < r->nrows; i++)
        if (r->rows[i].p > pmax) pmax = r->rows[i].p, widest = &r->rows[i];
    if (widest && np < pmax)
        return fail(err, errlen, rname,
                    "the application ran %s on %d processes (a %d-process job); a check on %d "
                    "processes cannot measure it: launch the check with %d",
                    mg_coll_name(widest->coll), pmax, r->nprocs, np, r->nprocs);
    if (np != r->nprocs)
        snprintf(warn, warnlen,
                 "the record is of a %d-process job, the plan is for %d: its communicators "
                 "are measured as sub-communicators of the larger job",
                 r->nprocs, np);

    prow *rows = calloc((size_t)(r->nrows ? r->nrows : 1), sizeof *rows);
    line_acc *lines = calloc((size_t)(r->nrows ? r->nrows : 1), sizeof *lines);
    mg_sbuf notes = {0}, b = {0};
    int nlines = 0, rc = 0;
    if (!rows || !lines) {
        rc = fail(err, errlen, rname, "out of memory");
        goto out;
    }
    double total = 0, planned = 0, calls = 0, pcalls = 0;
    int n = 0;
    for (int i = 0; i < r->nrows; i++) {
        total += r->rows[i].time_s;
        calls += (double)r->rows[i].calls;
        rows[n++] = (prow){&r->rows[i], 0, NULL, NULL, 0, 0, 0};
    }
    if (!n || total <= 0) {
        rc = fail(err, errlen, rname, "no collective calls recorded: nothing to plan");
        goto out;
    }
    /* rows by calls until the share of the calls is reached (a rare collective may take much
     * more of the time once the others are faster), then by time until that share, and every
     * row with a notable share of either (docs/record.md, rule 1) */
    qsort(rows, (size_t)n, sizeof *rows, by_rcalls);
    for (int i = 0; i < n && pcalls < o->cover * calls; i++) {
        rows[i].picked = 1;
        pcalls += (double)rows[i].w->calls;
    }
    qsort(rows, (size_t)n, sizeof *rows, by_time);
    for (int i = 0; i < n && planned < o->cover * total; i++) {
        rows[i].picked = 1;
        planned += rows[i].w->time_s;
    }
    for (int i = 0; i < n; i++)
        if (rows[i].w->time_s >= MG_PLAN_NOTABLE * total ||
            (double)rows[i].w->calls >= MG_PLAN_NOTABLE * calls)
            rows[i].picked = 1;
    /* the measured conditions of every row, and its group: (collective, p, element size and op
     * class of those conditions) */
    pgroup *groups = calloc((size_t)n, sizeof *groups);
    int ngroups = 0;
    if (!groups) {
        rc = fail(err, errlen, rname, "out of memory");
        goto out;
    }
    int *gof = calloc((size_t)n, sizeof *gof);
    if (!gof) {
        free(groups);
        rc = fail(err, errlen, rname, "out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        prow *x = &rows[i];
        int red = mg_coll_is_reduction(x->w->coll);
        if (mg_coll_sizeless(x->w->coll)) { /* their profiles apply to every datatype */
            x->exact = 1, x->type = x->op = NULL, x->esize = x->opclass = 0;
        } else {
            x->exact =
                mg_plan_bench_type(x->w->datatype, x->w->esize, x->w->op, red, &x->type, &x->op);
            x->esize = mg_dtype_size(x->type);
            x->opclass = red ? mg_op_class(x->op) : 0;
        }
        int g = 0;
        while (g < ngroups && !same_group(&groups[g], x)) g++;
        if (g == ngroups)
            groups[ngroups++] = (pgroup){x->w->coll, x->w->p, x->esize, x->opclass, 0, 0};
        groups[g].time += x->w->time_s;
        groups[g].calls += (double)x->w->calls;
        gof[i] = g;
    }
    /* a group with a notable share is planned whole, though none of its rows is notable */
    for (int i = 0; i < n; i++)
        if (groups[gof[i]].time >= MG_PLAN_NOTABLE * total ||
            groups[gof[i]].calls >= MG_PLAN_NOTABLE * calls)
            rows[i].picked = 1;
    free(gof);
    /* one line per group: its picked rows, the conditions those of its row with the most time
     * (rows are in time order) */
    for (int i = 0; i < n; i++) {
        if (!rows[i].picked) continue;
        const mg_rec_row *w = rows[i].w;
        int k = 0;
        while (k < nlines &&
               (lines[k].coll != w->coll || lines[k].p != w->p || lines[k].esize != rows[i].esize ||
                lines[k].opclass != rows[i].opclass))
            k++;
        line_acc *l = &lines[k];
        const char *type = rows[i].type, *op = rows[i].op;
        int exact = rows[i].exact;
        if (k == nlines) {
            nlines++;
            l->coll = w->coll, l->p = w->p, l->type = type, l->op = op, l->exact = exact;
            l->esize = rows[i].esize, l->opclass = rows[i].opclass;
            if (!exact)
                mg_sbuf_printf(&notes,
                               "# %s p=%d: recorded with %s (%d bytes) %s, measured with %s%s%s; "
                               "the profile applies to those calls only with "
                               "MPIGUIDE_MATCH=size\n",
                               mg_coll_name(w->coll), w->p, w->datatype, w->esize, w->op, type,
                               op ? " " : "", op ? op : "");
        }
        l->time += w->time_s;
        l->calls += w->calls;
        l->b2b += w->b2b;
        if (w->rooted) add_roots(l, w);
        if (w->vrow) add_v(l, w);
        if (mg_coll_sizeless(w->coll)) continue; /* sizes of their own (v_sizes) */
        int es = mg_dtype_size(l->type), cap = (int)(sizeof l->sizes / sizeof l->sizes[0]);
        for (int z = 0; z < w->nsizes; z++) {
            int64_t lo, hi, m = w->sizes[z].msize;
            pow2_around(m, &lo, &hi);
            l->nsizes = add_size(l->sizes, l->nsizes, cap, m, es);
            l->nsizes = add_size(l->sizes, l->nsizes, cap, lo, es);
            l->nsizes = add_size(l->sizes, l->nsizes, cap, hi, es);
        }
        if (w->sizes_other) { /* sizes beyond the listed: the whole bucket */
            l->nsizes = add_size(l->sizes, l->nsizes, cap, w->lo, es);
            l->nsizes =
                add_size(l->sizes, l->nsizes, cap, w->hi < INT64_MAX ? w->hi + 1 : w->hi, es);
        }
    }
    double share = 0, cshare = 0;
    for (int k = 0; k < nlines; k++) share += lines[k].time, cshare += (double)lines[k].calls;
    mg_sbuf_printf(&b, "# mpiguide plan from %s\n", rname);
    mg_sbuf_printf(&b, "# recorded: %s, %d processes (%d nodes x %d), %s, `%.200s`\n",
                   r->date[0] ? r->date : "?", r->nprocs, r->nodes, r->ppn, r->mpi_library,
                   r->command);
    mg_sbuf_printf(&b,
                   "# these lines cover %.1f %% of the recorded collective time (%.6g of %.6g s) "
                   "and %.1f %% of the calls (--cover %g) in a %d-process check\n",
                   100 * share / total, share, total, calls > 0 ? 100 * cshare / calls : 0.0,
                   o->cover, np);
    char *nt = mg_sbuf_take(&notes);
    if (nt) mg_sbuf_printf(&b, "%s", nt);
    free(nt);
    for (int k = 0; k < nlines; k++) {
        line_acc *l = &lines[k];
        int sizeless = mg_coll_sizeless(l->coll), shape = main_shape(l);
        int barrier = mg_coll_blocking(l->coll) == MG_CAT_BARRIER;
        if (sizeless && !barrier) v_sizes(l, shape);
        if (!l->nsizes && !barrier) continue;
        qsort(l->sizes, (size_t)l->nsizes, sizeof l->sizes[0], cmp_i64);
        mg_sbuf_printf(&b, "# %s on %d processes: %.1f %% of the time, %llu calls",
                       mg_coll_name(l->coll), l->p, 100 * l->time / total,
                       (unsigned long long)l->calls);
        if (mg_coll_is_v(l->coll)) {
            int n = 0;
            for (int t = 0; t < MG_PROBLEM_COUNT; t++)
                if (l->spread[t])
                    mg_sbuf_printf(&b, "%s %s (%llu calls)", n++ ? "," : "; counts shaped",
                                   mg_problem_name(t), (unsigned long long)l->spread[t]);
            mg_sbuf_printf(&b, "%s, largest block %lld bytes", n ? "" : "; no rank saw every count",
                           (long long)l->block);
        }
        mg_sbuf_printf(&b, "\n%s --comm-sizes=%d", mg_coll_name(l->coll), l->p);
        if (l->type) mg_sbuf_printf(&b, " --datatype=%s", l->type);
        if (l->op) mg_sbuf_printf(&b, " --op=%s", l->op);
        if (mg_coll_is_v(l->coll) && (sizeless || shape != MG_PROBLEM_SAME))
            mg_sbuf_printf(&b, " --irregular=%s", mg_problem_name(shape));
        if (!barrier) mg_sbuf_printf(&b, " --msizes-list=");
        for (int z = 0; z < l->nsizes && !barrier; z++)
            mg_sbuf_printf(&b, "%s%lld", z ? "," : "", (long long)l->sizes[z]);
        roots_option(&b, l, mg_coll_is_v(l->coll));
        if (l->calls && 2 * l->b2b >= l->calls && o->batch > 1)
            mg_sbuf_printf(&b, " --back-to-back=%lld", (long long)o->batch);
        mg_sbuf_printf(&b, " --nrep=%lld --rt-bench-time-ms=%g\n", (long long)o->nrep, o->time_ms);
    }
    *text = mg_sbuf_take(&b);
    if (!*text) rc = fail(err, errlen, rname, "out of memory");
    free(groups);
out:
    free(rows);
    free(lines);
    free(notes.s);
    free(b.s);
    return rc;
}
