/* Parser of the benchmark options (docs/dev/interfaces.md section 6). Strict where ReproMPI was
 * lenient: an unknown option, a malformed number or a value out of range is an error that names the
 * option, so a typo never silently changes what is measured. */
#define _POSIX_C_SOURCE 200809L
#include "util/optval.h"
#include "options.h"
#include "model/problems.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const sync_names[MG_SYNC_COUNT] = {"mpibarrier", "dissemination", "window",
                                                      "roundtime"};

const char *mg_sync_name(int sync) {
    return sync >= 0 && sync < MG_SYNC_COUNT ? sync_names[sync] : "?";
}

const char *mg_runtime_name(int runtime) {
    return runtime == MG_RUNTIME_GLOBAL ? "global" : "local";
}

void mg_bench_roots_text(const mg_bench_opts *o, char *buf, size_t len) {
    size_t at = 0;
    buf[0] = 0;
    if (o->roots_rotate) {
        snprintf(buf, len, "rotate");
        return;
    }
    if (!o->nroots) {
        snprintf(buf, len, "%d", o->root);
        return;
    }
    for (int i = 0; i < o->nroots && at < len; i++) {
        int k = snprintf(buf + at, len - at, "%s%d", i ? "," : "", o->roots[i]);
        if (k < 0) break;
        at += (size_t)k;
    }
}

/* ---- defaults, copy, free ---- */
static const int64_t default_msizes[] = {1, 8, 64, 512, 4096, 32768};

void mg_bench_defaults(mg_bench_opts *o) {
    memset(o, 0, sizeof *o);
    o->nrep = 100;
    o->barrier_count = 0;
    o->root = 0;
    snprintf(o->op, sizeof o->op, "MPI_BOR");
    snprintf(o->datatype, sizeof o->datatype, "MPI_BYTE");
    o->sync = MG_SYNC_ROUNDTIME;
    o->runtime = MG_RUNTIME_GLOBAL;
    o->warmup = 1;
    o->b = -1;
    o->rho = 5.0;
    o->fitpoints = 20;
    o->exchanges = 10;
    o->watchdog_s = -1.0; /* not given: MPIGUIDE_WATCHDOG, else MG_WATCHDOG_DEFAULT_S */
}

static void free_list(char **v, int n) {
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

void mg_bench_opts_free(mg_bench_opts *o) {
    free(o->comm_sizes);
    free(o->roots);
    o->comm_sizes = o->roots = NULL;
    o->ncomm_sizes = o->nroots = 0;
    free(o->calls);
    free_list(o->algs, o->nalgs);
    free(o->msizes);
    free(o->nrep_file);
    free(o->output_file);
    o->calls = NULL, o->algs = NULL, o->msizes = NULL;
    o->nrep_file = o->output_file = NULL;
    o->ncalls = o->nalgs = o->nmsizes = 0;
}

static char *dup_or_null(const char *s, int *fail) {
    if (!s) return NULL;
    char *d = strdup(s);
    if (!d) *fail = 1;
    return d;
}

static int *dup_ints(const int *v, int n, int *fail) {
    if (!n) return NULL;
    int *d = malloc(sizeof(int) * (size_t)n);
    if (d)
        memcpy(d, v, sizeof(int) * (size_t)n);
    else
        *fail = 1;
    return d;
}

int mg_bench_opts_copy(mg_bench_opts *dst, const mg_bench_opts *src) {
    int fail = 0;
    *dst = *src;
    dst->calls = NULL, dst->algs = NULL, dst->msizes = NULL;
    dst->comm_sizes = dup_ints(src->comm_sizes, src->ncomm_sizes, &fail);
    dst->roots = dup_ints(src->roots, src->nroots, &fail);
    dst->nrep_file = dup_or_null(src->nrep_file, &fail);
    dst->output_file = dup_or_null(src->output_file, &fail);
    if (src->ncalls) {
        dst->calls = malloc(sizeof(int) * (size_t)src->ncalls);
        if (dst->calls) memcpy(dst->calls, src->calls, sizeof(int) * (size_t)src->ncalls);
        fail |= !dst->calls;
    }
    if (src->nmsizes) {
        dst->msizes = malloc(sizeof(int64_t) * (size_t)src->nmsizes);
        if (dst->msizes) memcpy(dst->msizes, src->msizes, sizeof(int64_t) * (size_t)src->nmsizes);
        fail |= !dst->msizes;
    }
    if (src->nalgs) {
        dst->algs = calloc((size_t)src->nalgs, sizeof(char *));
        fail |= !dst->algs;
        for (int i = 0; dst->algs && i < src->nalgs; i++)
            dst->algs[i] = dup_or_null(src->algs[i], &fail);
    }
    if (fail) {
        dst->nalgs = dst->algs ? dst->nalgs : 0;
        dst->ncomm_sizes = dst->comm_sizes ? dst->ncomm_sizes : 0;
        dst->nroots = dst->roots ? dst->nroots : 0;
        mg_bench_opts_free(dst);
        return -1;
    }
    return 0;
}

/* ---- value parsers: each returns 0 or writes "OPTION: problem" and returns 2 ---- */

static int add_msize(mg_perr *e, const char *opt, mg_bench_opts *o, int64_t v) {
    for (int i = 0; i < o->nmsizes; i++)
        if (o->msizes[i] == v) return 0;
    int64_t *m = realloc(o->msizes, sizeof(int64_t) * (size_t)(o->nmsizes + 1));
    if (!m) return mg_perr_fail(e, opt, "out of memory");
    o->msizes = m;
    o->msizes[o->nmsizes++] = v;
    return 0;
}

static int msize_item(mg_perr *e, const char *opt, const char *s, void *ctx) {
    int64_t v;
    int rc = mg_opt_i64(e, opt, s, 0, (int64_t)1 << 40, 1, &v);
    return rc ? rc : add_msize(e, opt, ctx, v);
}

static int call_item(mg_perr *e, const char *opt, const char *s, void *ctx) {
    mg_bench_opts *o = ctx;
    int id = mg_coll_lookup(s);
    if (id < 0)
        return mg_perr_fail(e, opt, "unknown collective '%s' (mpiguide info lists them)", s);
    for (int i = 0; i < o->ncalls; i++)
        if (o->calls[i] == id) return 0;
    int *c = realloc(o->calls, sizeof(int) * (size_t)(o->ncalls + 1));
    if (!c) return mg_perr_fail(e, opt, "out of memory");
    o->calls = c;
    o->calls[o->ncalls++] = id;
    return 0;
}

static int alg_item(mg_perr *e, const char *opt, const char *s, void *ctx) {
    mg_bench_opts *o = ctx;
    for (const char *q = s; *q; q++)
        if (!isalnum((unsigned char)*q) && *q != '_')
            return mg_perr_fail(e, opt, "'%s' is not an algorithm name", s);
    for (int i = 0; i < o->nalgs; i++)
        if (!strcmp(o->algs[i], s)) return 0;
    char **a = realloc(o->algs, sizeof(char *) * (size_t)(o->nalgs + 1));
    if (!a) return mg_perr_fail(e, opt, "out of memory");
    o->algs = a;
    if (!(o->algs[o->nalgs] = strdup(s))) return mg_perr_fail(e, opt, "out of memory");
    o->nalgs++;
    return 0;
}

typedef struct interval {
    int64_t min, max, step;
    int have_min, have_max;
} interval;

static int interval_item(mg_perr *e, const char *opt, const char *s, void *ctx) {
    interval *iv = ctx;
    const char *eq = strchr(s, '=');
    if (!eq) return mg_perr_fail(e, opt, "'%s' is not key=value (min=E1,max=E2[,step=S])", s);
    size_t k = (size_t)(eq - s);
    if (k == 3 && !strncmp(s, "min", 3)) {
        iv->have_min = 1;
        return mg_opt_i64(e, opt, eq + 1, 0, 40, 0, &iv->min);
    }
    if (k == 3 && !strncmp(s, "max", 3)) {
        iv->have_max = 1;
        return mg_opt_i64(e, opt, eq + 1, 0, 40, 0, &iv->max);
    }
    if (k == 4 && !strncmp(s, "step", 4)) return mg_opt_i64(e, opt, eq + 1, 1, 40, 0, &iv->step);
    return mg_perr_fail(e, opt, "unknown key '%.*s' (min, max, step)", (int)k, s);
}

/* One value of a list of ranks or sizes; duplicates are refused (they would measure twice). */
typedef struct int_list {
    int **v;
    int *n;
    int lo;
} int_list;

static int int_item(mg_perr *e, const char *opt, const char *s, void *ctx) {
    int_list *l = ctx;
    int64_t x;
    int rc = mg_opt_i64(e, opt, s, l->lo, 1 << 24, 0, &x);
    if (rc) return rc;
    for (int i = 0; i < *l->n; i++)
        if ((*l->v)[i] == (int)x) return mg_perr_fail(e, opt, "%lld listed twice", (long long)x);
    int *d = realloc(*l->v, sizeof(int) * (size_t)(*l->n + 1));
    if (!d) return mg_perr_fail(e, opt, "out of memory");
    *l->v = d;
    d[(*l->n)++] = (int)x;
    return 0;
}

static int summary_item(mg_perr *e, const char *opt, const char *s, void *ctx) {
    unsigned *m = ctx;
    if (!strcmp(s, "min"))
        *m |= MG_SUMMARY_MIN;
    else if (!strcmp(s, "median"))
        *m |= MG_SUMMARY_MEDIAN;
    else if (!strcmp(s, "mean"))
        *m |= MG_SUMMARY_MEAN;
    else if (!strcmp(s, "max"))
        *m |= MG_SUMMARY_MAX;
    else
        return mg_perr_fail(e, opt, "unknown statistic '%s' (min, median, mean, max)", s);
    return 0;
}

static int set_string(mg_perr *e, const char *opt, char **dst, const char *v) {
    if (!v || !*v) return mg_perr_fail(e, opt, "missing value");
    char *d = strdup(v);
    if (!d) return mg_perr_fail(e, opt, "out of memory");
    free(*dst);
    *dst = d;
    return 0;
}

/* ---- the option table ---- */
enum optid {
    O_CALLS,
    O_ALGS,
    O_MSIZES,
    O_INTERVAL,
    O_NREP,
    O_NREP_FILE,
    O_TIME,
    O_BARRIER_COUNT,
    O_ROOT,
    O_OP,
    O_DATATYPE,
    O_SHUFFLE,
    O_PAGES,
    O_SYNC,
    O_RUNTIME,
    O_SUMMARY,
    O_OUTPUT,
    O_RESUME,
    O_VERIFY,
    O_QUIET,
    O_WARMUP,
    O_SEED,
    O_IRREGULAR,
    O_B,
    O_RHO,
    O_TABLE,
    O_WINDOW,
    O_FITPOINTS,
    O_EXCHANGES,
    O_INTERLEAVE,
    O_SPREAD,
    O_COMM_SIZES,
    O_ROOTS,
    O_BACK_TO_BACK,
    O_WATCHDOG,
    O_HELP
};

enum argkind { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL };

static const struct {
    const char *name;
    enum optid id;
    enum argkind arg;
} table[] = {
    {"calls-list", O_CALLS, ARG_REQUIRED},
    {"algs", O_ALGS, ARG_REQUIRED},
    {"msizes-list", O_MSIZES, ARG_REQUIRED},
    {"msize-interval", O_INTERVAL, ARG_REQUIRED},
    {"nrep", O_NREP, ARG_REQUIRED},
    {"nrep-file", O_NREP_FILE, ARG_REQUIRED},
    {"rt-bench-time-ms", O_TIME, ARG_REQUIRED},
    {"rt-barrier-count", O_BARRIER_COUNT, ARG_REQUIRED},
    {"root", O_ROOT, ARG_REQUIRED},
    {"root-proc", O_ROOT, ARG_REQUIRED},
    {"op", O_OP, ARG_REQUIRED},
    {"operation", O_OP, ARG_REQUIRED},
    {"datatype", O_DATATYPE, ARG_REQUIRED},
    {"shuffle", O_SHUFFLE, ARG_NONE},
    {"shuffle-jobs", O_SHUFFLE, ARG_NONE},
    {"pages", O_PAGES, ARG_REQUIRED},
    {"proc-sync", O_SYNC, ARG_REQUIRED},
    {"runtime-type", O_RUNTIME, ARG_REQUIRED},
    {"summary", O_SUMMARY, ARG_OPTIONAL},
    {"output-file", O_OUTPUT, ARG_REQUIRED},
    {"resume", O_RESUME, ARG_NONE},
    {"verify", O_VERIFY, ARG_NONE},
    {"quiet", O_QUIET, ARG_NONE},
    {"warmup", O_WARMUP, ARG_REQUIRED},
    {"seed", O_SEED, ARG_REQUIRED},
    {"irregular", O_IRREGULAR, ARG_REQUIRED},
    {"b", O_B, ARG_REQUIRED},
    {"rho", O_RHO, ARG_REQUIRED},
    {"table", O_TABLE, ARG_NONE},
    {"window-size", O_WINDOW, ARG_REQUIRED},
    {"fitpoints", O_FITPOINTS, ARG_REQUIRED},
    {"exchanges", O_EXCHANGES, ARG_REQUIRED},
    {"interleave", O_INTERLEAVE, ARG_REQUIRED},
    {"spread", O_SPREAD, ARG_NONE},
    {"comm-sizes", O_COMM_SIZES, ARG_REQUIRED},
    {"roots", O_ROOTS, ARG_REQUIRED},
    {"back-to-back", O_BACK_TO_BACK, ARG_REQUIRED},
    {"watchdog", O_WATCHDOG, ARG_REQUIRED},
    {"help", O_HELP, ARG_NONE},
};

int mg_bench_option_arity(const char *name, size_t len) {
    for (size_t t = 0; t < sizeof table / sizeof table[0]; t++)
        if (strlen(table[t].name) == len && !strncmp(table[t].name, name, len))
            return table[t].arg == ARG_NONE ? 0 : table[t].arg == ARG_REQUIRED ? 1 : 2;
    return -1;
}

static int set_sync(mg_perr *e, const char *opt, const char *v, mg_bench_opts *o) {
    static const struct {
        const char *name;
        int sync;
    } names[] = {
        {"mpibarrier", MG_SYNC_MPIBARRIER},
        {"MPI_Barrier", MG_SYNC_MPIBARRIER},
        {"dissemination", MG_SYNC_DISSEMINATION},
        {"dissem_barrier", MG_SYNC_DISSEMINATION},
        {"window", MG_SYNC_WINDOW},
        {"roundtime", MG_SYNC_ROUNDTIME},
    };
    for (size_t i = 0; v && i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(v, names[i].name)) {
            o->sync = names[i].sync;
            return 0;
        }
    return mg_perr_fail(
        e, opt, "unknown method '%s' (mpibarrier, dissemination, window, roundtime)", v ? v : "");
}

static int apply(mg_perr *e, const char *opt, enum optid id, const char *v, mg_bench_opts *o) {
    int64_t n;
    int rc;
    switch (id) {
    case O_CALLS:
        o->ncalls = 0;
        return mg_opt_each(e, opt, v, call_item, o);
    case O_ALGS:
        free_list(o->algs, o->nalgs);
        o->algs = NULL, o->nalgs = 0;
        o->algs_given = 1;
        return mg_opt_each(e, opt, v, alg_item, o);
    case O_MSIZES:
        return mg_opt_each(e, opt, v, msize_item, o);
    case O_INTERVAL: {
        interval iv = {0, 0, 1, 0, 0};
        if ((rc = mg_opt_each(e, opt, v, interval_item, &iv))) return rc;
        if (!iv.have_min || !iv.have_max) return mg_perr_fail(e, opt, "needs min=E1,max=E2");
        if (iv.min > iv.max)
            return mg_perr_fail(e, opt, "min %lld > max %lld", (long long)iv.min,
                                (long long)iv.max);
        for (int64_t x = iv.min; x <= iv.max; x += iv.step)
            if ((rc = add_msize(e, opt, o, (int64_t)1 << x))) return rc;
        return 0;
    }
    case O_NREP:
        if ((rc = mg_opt_i64(e, opt, v, 1, (int64_t)1 << 40, 0, &o->nrep))) return rc;
        o->nrep_given = 1;
        return 0;
    case O_NREP_FILE:
        return set_string(e, opt, &o->nrep_file, v);
    case O_TIME:
        return mg_opt_double(e, opt, v, 1e-3, 1e9, &o->time_ms);
    case O_BARRIER_COUNT:
        return mg_opt_i64(e, opt, v, 0, INT_MAX, 0, &o->barrier_count);
    case O_ROOT:
        if ((rc = mg_opt_i64(e, opt, v, 0, INT_MAX, 0, &n))) return rc;
        o->root = (int)n;
        o->root_given = 1;
        return 0;
    case O_OP:
        if (!mg_op_known(v))
            return mg_perr_fail(e, opt, "unknown op '%s' (MPI_SUM, MPI_BOR, ...)", v);
        snprintf(o->op, sizeof o->op, "%s", v);
        return 0;
    case O_DATATYPE:
        if (!mg_dtype_size(v))
            return mg_perr_fail(e, opt,
                                "unknown datatype '%s' (MPI_BYTE, MPI_INT, MPI_DOUBLE, ...)", v);
        snprintf(o->datatype, sizeof o->datatype, "%s", v);
        return 0;
    case O_SHUFFLE:
        o->shuffle = 1;
        return 0;
    case O_PAGES:
        if (strcmp(v, "huge") && strcmp(v, "small"))
            return mg_perr_fail(e, opt, "'%s' is neither huge nor small", v);
        o->small_pages = !strcmp(v, "small");
        return 0;
    case O_SYNC:
        return set_sync(e, opt, v, o);
    case O_RUNTIME:
        if (!strcmp(v, "local"))
            o->runtime = MG_RUNTIME_LOCAL;
        else if (!strcmp(v, "global"))
            o->runtime = MG_RUNTIME_GLOBAL;
        else
            return mg_perr_fail(e, opt, "unknown type '%s' (local, global)", v);
        return 0;
    case O_SUMMARY:
        o->summary = 0;
        if (!v) {
            o->summary = MG_SUMMARY_ALL;
            return 0;
        }
        return mg_opt_each(e, opt, v, summary_item, &o->summary);
    case O_OUTPUT:
        return set_string(e, opt, &o->output_file, v);
    case O_RESUME:
        o->resume = 1;
        return 0;
    case O_VERIFY:
        o->verify = 1;
        return 0;
    case O_QUIET:
        o->quiet = 1;
        return 0;
    case O_WARMUP:
        return mg_opt_i64(e, opt, v, 0, 1000000, 0, &o->warmup);
    case O_SEED: {
        if (!v || !*v || *v == '-')
            return mg_perr_fail(e, opt, "'%s' is not a seed (0..2^64-1)", v);
        errno = 0;
        char *end;
        unsigned long long s = strtoull(v, &end, 10);
        if (*end || errno == ERANGE)
            return mg_perr_fail(e, opt, "'%s' is not a seed (0..2^64-1)", v);
        o->seed = (uint64_t)s;
        o->seed_given = 1;
        return 0;
    }
    case O_IRREGULAR:
        if (mg_problem_parse(v) < 0 && strcmp(v, "all"))
            return mg_perr_fail(e, opt,
                                "unknown problem type '%s' (same, random, spikes, decreasing, "
                                "alternating, twoblocks; all with --table)",
                                v);
        snprintf(o->irregular, sizeof o->irregular, "%s", v);
        return 0;
    case O_B:
        return mg_opt_i64(e, opt, v, 0, INT_MAX, 0, &o->b);
    case O_RHO:
        return mg_opt_double(e, opt, v, 1.0, 1e9, &o->rho);
    case O_TABLE:
        o->table = 1;
        return 0;
    case O_WINDOW:
        return mg_opt_double(e, opt, v, 1.0, 1e9, &o->window_us);
    case O_FITPOINTS:
        if ((rc = mg_opt_i64(e, opt, v, 2, 100000, 0, &n))) return rc;
        o->fitpoints = (int)n;
        return 0;
    case O_EXCHANGES:
        if ((rc = mg_opt_i64(e, opt, v, 1, 100000, 0, &n))) return rc;
        o->exchanges = (int)n;
        return 0;
    case O_INTERLEAVE:
        o->interleave_given = 1;
        return mg_opt_i64(e, opt, v, 0, 1000000, 0, &o->interleave);
    case O_SPREAD:
        o->spread = 1;
        return 0;
    case O_COMM_SIZES: {
        free(o->comm_sizes);
        o->comm_sizes = NULL, o->ncomm_sizes = 0;
        int_list l = {&o->comm_sizes, &o->ncomm_sizes, 1};
        return mg_opt_each(e, opt, v, int_item, &l);
    }
    case O_ROOTS: {
        free(o->roots);
        o->roots = NULL, o->nroots = 0;
        o->roots_rotate = v && !strcmp(v, "rotate");
        if (o->roots_rotate) return 0;
        int_list l = {&o->roots, &o->nroots, 0};
        return mg_opt_each(e, opt, v, int_item, &l);
    }
    case O_BACK_TO_BACK:
        return mg_opt_i64(e, opt, v, 1, 1000000, 0, &o->batch);
    case O_WATCHDOG:
        return mg_opt_double(e, opt, v, 0.0, MG_WATCHDOG_MAX_S, &o->watchdog_s);
    case O_HELP:
        o->help = 1;
        return 0;
    }
    return mg_perr_fail(e, opt, "internal error");
}

/* Checks between options once all are known. */
static int validate(mg_perr *e, mg_bench_opts *o) {
    int tsize = mg_dtype_size(o->datatype);
    int any_red = 0;
    for (int i = 0; i < o->ncalls; i++) any_red |= mg_coll_is_reduction(o->calls[i]);
    if (!o->ncalls) any_red = 1; /* every collective */
    if (any_red && !mg_op_allowed(o->op, o->datatype))
        return mg_perr_fail(e, "--op", "%s does not apply to %s (MPI-3.1 section 5.9.2)", o->op,
                            o->datatype);
    for (int i = 0; i < o->nmsizes; i++)
        if (o->msizes[i] % tsize)
            return mg_perr_fail(e, "--msizes-list",
                                "%lld bytes is not a multiple of the size of %s (%d bytes)",
                                (long long)o->msizes[i], o->datatype, tsize);
    if (o->resume && !o->output_file)
        return mg_perr_fail(e, "--resume", "needs --output-file (the file to complete)");
    if ((o->b >= 0 || o->table) && !o->irregular[0])
        return mg_perr_fail(e, o->table ? "--table" : "--b", "needs --irregular=TYPE");
    if (!strcmp(o->irregular, "all") && !o->table)
        return mg_perr_fail(e, "--irregular", "'all' needs --table");
    if (o->table && o->resume)
        return mg_perr_fail(e, "--table",
                            "cannot be combined with --resume (the table needs every "
                            "measurement of this run)");
    if (o->spread && !o->interleave)
        return mg_perr_fail(e, "--spread", "needs --interleave=B (the batches it spreads)");
    if (o->table && o->interleave)
        return mg_perr_fail(e, "--interleave",
                            "cannot be combined with --table (each cell is its own measurement)");
    if (o->table && o->nrep_file)
        return mg_perr_fail(e, "--table", "takes --nrep, not --nrep-file");
    if (o->root_given && (o->roots_rotate || o->nroots))
        return mg_perr_fail(e, "--roots",
                            "cannot be combined with --root (one root or a sequence)");
    if (o->table && (o->ncomm_sizes || o->roots_rotate || o->nroots || o->batch))
        return mg_perr_fail(e, "--table",
                            "measures the paper's fixed conditions (no --comm-sizes, --roots, "
                            "--back-to-back)");
    if (o->table && o->ncalls) {
        int v = 0;
        for (int i = 0; i < o->ncalls; i++)
            v |= o->calls[i] == MG_CAT_GATHERV || o->calls[i] == MG_CAT_SCATTERV;
        if (!v)
            return mg_perr_fail(e, "--table", "needs MPI_Gatherv or MPI_Scatterv in --calls-list");
    }
    return 0;
}

int mg_bench_parse(int argc, char *const *argv, mg_bench_opts *o, char *err, size_t errlen) {
    mg_perr e = {err, errlen};
    if (err && errlen) err[0] = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) || !a[2])
            return mg_perr_fail(&e, a, "not an option (options look like --name=value)");
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        int k = -1;
        for (size_t t = 0; t < sizeof table / sizeof table[0]; t++)
            if (strlen(table[t].name) == len && !strncmp(table[t].name, name, len)) k = (int)t;
        char opt[64];
        snprintf(opt, sizeof opt, "--%.*s", (int)(len < 50 ? len : 50), name);
        if (k < 0)
            return mg_perr_fail(&e, opt, "unknown option (mpiguide bench --help lists them)");
        const char *v = eq ? eq + 1 : NULL;
        if (table[k].arg == ARG_NONE && v) return mg_perr_fail(&e, opt, "takes no value");
        if (table[k].arg == ARG_REQUIRED && !v) {
            if (i + 1 >= argc) return mg_perr_fail(&e, opt, "missing value");
            v = argv[++i];
        }
        int rc = apply(&e, opt, table[k].id, v, o);
        if (rc) return rc;
    }
    if (o->help) return 0;
    if (!o->ncalls && o->table) { /* --table: the paper's gather tables */
        o->calls = malloc(sizeof(int));
        if (!o->calls) return mg_perr_fail(&e, "--calls-list", "out of memory");
        o->calls[0] = mg_coll_lookup("MPI_Gatherv");
        o->ncalls = 1;
    }
    if (!o->ncalls) { /* the blocking collectives; nonblocking ones only when named */
        o->calls = malloc(sizeof(int) * mg_ncolls);
        if (!o->calls) return mg_perr_fail(&e, "--calls-list", "out of memory");
        for (int c = 0; c < mg_ncolls; c++)
            if (!mg_coll_is_nb(c)) o->calls[o->ncalls++] = c;
    }
    if (!o->nalgs) {
        int rc = alg_item(&e, "--algs", MG_ALG_DEFAULT, o);
        if (rc) return rc;
    }
    if (!o->nmsizes) /* the defaults, rounded up to whole elements */
        for (size_t i = 0; i < sizeof default_msizes / sizeof default_msizes[0]; i++) {
            int64_t t = mg_dtype_size(o->datatype);
            int rc = add_msize(&e, "--msizes-list", o, (default_msizes[i] + t - 1) / t * t);
            if (rc) return rc;
        }
    return validate(&e, o);
}

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void mg_bench_shuffle(int *idx, int n, uint64_t seed) {
    uint64_t state = seed;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(splitmix64(&state) % (uint64_t)(i + 1));
        int t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
}

const char mg_bench_usage[] =
    "usage: mpirun -np P mpiguide bench [options]\n"
    "Measures collectives with the library's own algorithm, any mock-up and any of the\n"
    "library's own algorithms (*_lib_*);\n"
    "one raw row per observation (docs/benchmark.md).\n"
    "\n"
    "  --calls-list=A,B            MPI names (default: every blocking collective)\n"
    "  --algs=a,b|all              algorithms: registry and library algorithm names\n"
    "                              (mpiguide info), default, tuned, mockups, library,\n"
    "                              all = default + mockups + library (default: default)\n"
    "  --msizes-list=1,8           message sizes in bytes (suffix K, M, G allowed)\n"
    "  --msize-interval=min=E1,max=E2[,step=S]  sizes 2^E1 .. 2^E2 bytes\n"
    "  --nrep=N                    observations per measurement (default 100)\n"
    "  --nrep-file=PATH            per (call, msize) from `mpiguide nrep`\n"
    "  --rt-bench-time-ms=T        time budget per measurement (rank 0 decides)\n"
    "  --rt-barrier-count=N        roundtime: barrier after N missed starts in a row\n"
    "  --root=R, --root-proc=R     root (default 0)\n"
    "  --op=OP, --operation=OP     reduction op (default MPI_BOR)\n"
    "  --datatype=T                base datatype (default MPI_BYTE)\n"
    "  --shuffle, --shuffle-jobs   random order of (call, algorithm, size)\n"
    "  --pages=huge|small          buffers on transparent huge pages (default) or base pages\n"
    "  --interleave=B              the algorithms of one (call, size) alternate in batches\n"
    "                              of B observations (ABBA); budget: theirs together\n"
    "  --spread                    with --interleave: the sizes take turns too, so each\n"
    "                              size's observations span the whole run (check's default)\n"
    "  --seed=S                    seed of --shuffle and random problems\n"
    "  --proc-sync=M               mpibarrier (MPI_Barrier), dissemination\n"
    "                              (dissem_barrier), window, roundtime (default)\n"
    "  --runtime-type=local|global per-observation time (default global)\n"
    "  --window-size=US            window sync: window in microseconds (default: measured)\n"
    "  --fitpoints=N --exchanges=N clock synchronisation effort (default 20, 10)\n"
    "  --summary[=min,median,mean,max]  summary table with a 95% CI of the median\n"
    "  --output-file=PATH          raw output (default: stdout); locked while the run writes it\n"
    "  --resume                    skip measurements already complete in --output-file\n"
    "  --verify                    check each algorithm's result against the default\n"
    "  --warmup=N                  unrecorded calls before each measurement (default 1)\n"
    "  --quiet                     no progress on stderr\n"
    "  --watchdog=S                stop with one error line when the measurements make no\n"
    "                              progress for S seconds (default 300, or MPIGUIDE_WATCHDOG;\n"
    "                              0: off); exit code 4\n"
    "  --comm-sizes=Q1,Q2          also measure on sub-communicators of Q ranks (the first Q\n"
    "                              in node order, so whole nodes), in this launch; rows\n"
    "                              after `#@comm_size=Q` (default: the whole job only)\n"
    "  --roots=rotate|R1,R2,...    root of call k: k mod Q, or R[k mod n] (rooted calls)\n"
    "  --back-to-back=N            time N consecutive calls as one observation (per-call\n"
    "                              time = total / N), as loops in applications call them\n"
    "  --irregular=TYPE --b=B --rho=R  problem types for Gatherv/Scatterv: same, random,\n"
    "                              spikes, decreasing, alternating, twoblocks (b in MPI_INT)\n"
    "  --table                     with --irregular=TYPE|all: Traff's Tables 1-5 (MPI_Gather on\n"
    "                              padded blocks, padding guideline, MPI_Gatherv, TUW; average\n"
    "                              and minimum in us) per problem and b (--b, else 1,10,100,\n"
    "                              1000); MPI_Scatterv in --calls-list adds the scatter table;\n"
    "                              root floor(p/2) unless --root; raw rows only to --output-file\n"
    "Exit code 5: measurements were skipped for lack of memory (#@skipped lines in the raw\n"
    "data; the last line says how many and where); everything measured is written.\n";
