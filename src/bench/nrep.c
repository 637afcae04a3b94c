/* NREP stop rules, the HPC Asia estimate, `mpiguide nrep` options and the predicted-nrep file.
 * Every rule is a pure function of the observation sequence, so tests can feed synthetic
 * sequences with known answers; the MPI driver only runs observations and broadcasts. */
#include "opt_error.h"
#include "nrep.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const method_names[MG_NREP_NMETHODS] = {"rse", "cov_mean", "cov_median"};

void mg_nrep_rule_default(mg_nrep_rule *r) {
    memset(r, 0, sizeof *r);
    r->methods = 1u << MG_NREP_RSE;
    r->thres[MG_NREP_RSE] = 0.025;
    r->thres[MG_NREP_COV_MEAN] = 0.01;
    r->thres[MG_NREP_COV_MEDIAN] = 0.01;
    r->win[MG_NREP_COV_MEAN] = 20;
    r->win[MG_NREP_COV_MEDIAN] = 20;
    r->min = 20;
    r->max = 1000;
    r->step = 10;
}

/* ---- statistics of a sequence ---- */
static void mean_sd(const double *v, size_t n, double *mean, double *sd) {
    double m = 0.0, m2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = v[i] - m;
        m += d / (double)(i + 1);
        m2 += d * (v[i] - m);
    }
    *mean = m;
    *sd = n > 1 ? sqrt(m2 / (double)(n - 1)) : NAN;
}

static double ratio(double num, double den) {
    if (num == 0.0) return 0.0;
    return den > 0.0 ? num / den : INFINITY;
}

double mg_nrep_rse_of(const double *v, size_t n) {
    if (n < 2) return INFINITY;
    double m, sd;
    mean_sd(v, n, &m, &sd);
    return ratio(sd / sqrt((double)n), m);
}

double mg_nrep_cov_of(const double *v, size_t n) {
    if (n < 2) return INFINITY;
    double m, sd;
    mean_sd(v, n, &m, &sd);
    return ratio(sd, m);
}

/* ---- heaps of the running median ---- */
static void heap_push(double *h, int64_t *n, double x, int max_heap) {
    int64_t i = (*n)++;
    h[i] = x;
    while (i > 0) {
        int64_t parent = (i - 1) / 2;
        int swap = max_heap ? h[parent] < h[i] : h[parent] > h[i];
        if (!swap) break;
        double t = h[parent];
        h[parent] = h[i];
        h[i] = t;
        i = parent;
    }
}

static double heap_pop(double *h, int64_t *n, int max_heap) {
    double top = h[0];
    h[0] = h[--(*n)];
    int64_t i = 0;
    for (;;) {
        int64_t l = 2 * i + 1, r = l + 1, best = i;
        if (l < *n && (max_heap ? h[l] > h[best] : h[l] < h[best])) best = l;
        if (r < *n && (max_heap ? h[r] > h[best] : h[r] < h[best])) best = r;
        if (best == i) break;
        double t = h[best];
        h[best] = h[i];
        h[i] = t;
        i = best;
    }
    return top;
}

double mg_nrep_median(const mg_nrep_state *s) {
    if (s->n == 0) return NAN;
    return s->nlo > s->nhi ? s->lo[0] : (s->lo[0] + s->hi[0]) / 2.0;
}

int mg_nrep_begin(mg_nrep_state *s, const mg_nrep_rule *r) {
    memset(s, 0, sizeof *s);
    s->r = *r;
    if (s->r.min < 1) s->r.min = 1;
    if (s->r.max < s->r.min) s->r.max = s->r.min;
    if (s->r.step < 1) s->r.step = 1;
    for (int m = 0; m < MG_NREP_NMETHODS; m++)
        if (s->r.win[m] < 2) s->r.win[m] = 2;
    size_t cap = (size_t)s->r.max + 1;
    s->lo = malloc(sizeof(double) * cap);
    s->hi = malloc(sizeof(double) * cap);
    s->means = malloc(sizeof(double) * (size_t)s->r.win[MG_NREP_COV_MEAN]);
    s->medians = malloc(sizeof(double) * (size_t)s->r.win[MG_NREP_COV_MEDIAN]);
    s->rse = s->cov_mean = s->cov_median = NAN;
    if (!s->lo || !s->hi || !s->means || !s->medians) {
        mg_nrep_end(s);
        return -1;
    }
    return 0;
}

void mg_nrep_end(mg_nrep_state *s) {
    free(s->lo);
    free(s->hi);
    free(s->means);
    free(s->medians);
    s->lo = s->hi = s->means = s->medians = NULL;
}

int mg_nrep_add(mg_nrep_state *s, double x) {
    /* running mean and variance */
    s->n++;
    double d = x - s->mean;
    s->mean += d / (double)s->n;
    s->m2 += d * (x - s->mean);
    /* running median */
    if (s->nlo == 0 || x <= s->lo[0])
        heap_push(s->lo, &s->nlo, x, 1);
    else
        heap_push(s->hi, &s->nhi, x, 0);
    if (s->nlo > s->nhi + 1)
        heap_push(s->hi, &s->nhi, heap_pop(s->lo, &s->nlo, 1), 0);
    else if (s->nhi > s->nlo)
        heap_push(s->lo, &s->nlo, heap_pop(s->hi, &s->nhi, 0), 1);
    int wm = s->r.win[MG_NREP_COV_MEAN], wd = s->r.win[MG_NREP_COV_MEDIAN];
    s->means[(s->n - 1) % wm] = s->mean;
    s->medians[(s->n - 1) % wd] = mg_nrep_median(s);

    double sd = s->n > 1 ? sqrt(s->m2 / (double)(s->n - 1)) : NAN;
    s->rse = s->n > 1 ? ratio(sd / sqrt((double)s->n), s->mean) : INFINITY;
    s->cov_mean = s->n >= wm ? mg_nrep_cov_of(s->means, (size_t)wm) : INFINITY;
    s->cov_median = s->n >= wd ? mg_nrep_cov_of(s->medians, (size_t)wd) : INFINITY;

    if (s->n >= s->r.max) return 1;
    if (s->n < s->r.min || (s->n - s->r.min) % s->r.step) return 0;
    const double value[MG_NREP_NMETHODS] = {s->rse, s->cov_mean, s->cov_median};
    for (int m = 0; m < MG_NREP_NMETHODS; m++)
        if ((s->r.methods & (1u << m)) && !(value[m] < s->r.thres[m])) return 0;
    return 1;
}

/* ---- HPC Asia 2018 ---- */
int mg_nrep_asia_second_batch(const double *v, size_t b1, double thres) {
    return !(mg_nrep_rse_of(v, b1) < thres);
}

int64_t mg_nrep_asia(double t1, double l, int64_t k, int64_t max) {
    int64_t n;
    if (!(l > 0.0)) {
        n = max > 0 ? max : k;
    } else {
        double q = ceil(t1 / l);
        n = q >= 9.0e18 ? INT64_MAX : (int64_t)q;
    }
    if (n < k) n = k;
    if (max > 0 && n > max) n = max;
    return n;
}

/* ---- options ---- */

static int num(mg_perr *e, const char *opt, const char *s, double lo, double hi, double *out) {
    char *end;
    errno = 0;
    double v = s && *s ? strtod(s, &end) : NAN;
    if (!s || !*s || *end || errno == ERANGE || !(v >= lo && v <= hi))
        return mg_perr_fail(e, opt, "'%s' is not a number in [%g, %g]", s ? s : "", lo, hi);
    *out = v;
    return 0;
}

static int inum(mg_perr *e, const char *opt, const char *s, int64_t lo, int64_t hi, int64_t *out) {
    char *end;
    errno = 0;
    long long v = s && *s ? strtoll(s, &end, 10) : 0;
    if (!s || !*s || *end || errno == ERANGE || isspace((unsigned char)*s) || v < lo || v > hi)
        return mg_perr_fail(e, opt, "'%s' is not a whole number in [%lld, %lld]", s ? s : "",
                            (long long)lo, (long long)hi);
    *out = (int64_t)v;
    return 0;
}

/* Splits "a,b,c" into at most max items of at most 31 characters. Returns the count or -1. */
static int split(const char *s, char items[][32], int max) {
    int n = 0;
    const char *p = s;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        if (len == 0 || len > 31 || n == max) return -1;
        memcpy(items[n], p, len);
        items[n++][len] = 0;
        if (!c) return n;
        p = c + 1;
    }
}

/* Bench options that make sense for a prediction; the others are rejected by name. */
static const char *const shared[] = {
    "calls-list", "algs",      "msizes-list", "msize-interval", "root",         "root-proc",
    "op",         "operation", "datatype",    "proc-sync",      "runtime-type", "output-file",
    "quiet",      "warmup",    "seed",        "fitpoints",      "exchanges",    "rt-barrier-count",
    "help",
};

static const struct {
    const char *name;
    int id;
} nopts[] = {
    {"pred-method", 1}, {"var-thres", 2}, {"var-win", 3},     {"rep-prediction", 4},
    {"predictions", 5}, {"t1-thres", 6},  {"batch-thres", 7}, {"b1", 8},
    {"b2", 9},          {"k", 10},
};

static int rep_bounds(mg_perr *e, const char *opt, const char *v, mg_nrep_rule *r) {
    char items[3][32];
    int n = split(v, items, 3);
    if (n < 0) return mg_perr_fail(e, opt, "'%s' is not min=N,max=N,step=N", v);
    for (int i = 0; i < n; i++) {
        char *eq = strchr(items[i], '=');
        if (!eq) return mg_perr_fail(e, opt, "'%s' is not key=value", items[i]);
        *eq = 0;
        int64_t x;
        int rc = inum(e, opt, eq + 1, 1, 10000000, &x);
        if (rc) return rc;
        if (!strcmp(items[i], "min"))
            r->min = x;
        else if (!strcmp(items[i], "max"))
            r->max = x;
        else if (!strcmp(items[i], "step"))
            r->step = x;
        else
            return mg_perr_fail(e, opt, "unknown key '%s' (min, max, step)", items[i]);
    }
    if (r->min > r->max)
        return mg_perr_fail(e, opt, "min %lld > max %lld", (long long)r->min, (long long)r->max);
    return 0;
}

int mg_nrep_parse(int argc, char *const *argv, mg_nrep_opts *o, char *err, size_t errlen) {
    mg_perr e = {err, errlen};
    if (err && errlen) err[0] = 0;
    memset(o, 0, sizeof *o);
    mg_bench_defaults(&o->bench);
    mg_nrep_rule_default(&o->rule);
    o->t1_thres = 0.01;
    o->batch_thres = 0.05;
    o->b1 = 5;
    o->b2 = 5;
    o->k = 10;
    o->predictions = 1;
    const char *methods = NULL, *thres = NULL, *wins = NULL;
    char **pass = malloc(sizeof(char *) * (size_t)(argc + 1));
    int npass = 0, rc = 0;
    if (!pass) return mg_perr_fail(&e, "nrep", "out of memory");
    for (int i = 0; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) || !a[2]) {
            rc = mg_perr_fail(&e, a, "not an option (options look like --name=value)");
            break;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        char opt[64];
        snprintf(opt, sizeof opt, "--%.*s", (int)(len < 50 ? len : 50), name);
        int id = 0;
        for (size_t k = 0; k < sizeof nopts / sizeof nopts[0]; k++)
            if (strlen(nopts[k].name) == len && !strncmp(nopts[k].name, name, len))
                id = nopts[k].id;
        if (!id) {
            int ok = 0;
            for (size_t k = 0; k < sizeof shared / sizeof shared[0]; k++)
                ok |= strlen(shared[k]) == len && !strncmp(shared[k], name, len);
            int arity = mg_bench_option_arity(name, len);
            if (!ok) {
                rc = mg_perr_fail(&e, opt,
                                  arity < 0 ? "unknown option (mpiguide nrep --help lists them)"
                                            : "is an option of bench, not of nrep");
                break;
            }
            pass[npass++] = (char *)a;
            if (arity == 1 && !eq && i + 1 < argc) pass[npass++] = argv[++i];
            continue;
        }
        const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!v) {
            rc = mg_perr_fail(&e, opt, "missing value");
            break;
        }
        double d;
        int64_t x;
        switch (id) {
        case 1:
            methods = v;
            break;
        case 2:
            thres = v;
            break;
        case 3:
            wins = v;
            break;
        case 4:
            rc = rep_bounds(&e, opt, v, &o->rule);
            o->bounds_given = 1;
            break;
        case 5:
            if (!(rc = inum(&e, opt, v, 1, 1000, &x))) o->predictions = (int)x;
            break;
        case 6:
            if (!(rc = num(&e, opt, v, 1e-9, 1.0, &d))) o->t1_thres = d;
            break;
        case 7:
            if (!(rc = num(&e, opt, v, 1e-9, 1.0, &d))) o->batch_thres = d;
            break;
        case 8:
            rc = inum(&e, opt, v, 2, 1000000, &o->b1);
            break;
        case 9:
            rc = inum(&e, opt, v, 0, 1000000, &o->b2);
            break;
        case 10:
            rc = inum(&e, opt, v, 1, 10000000, &o->k);
            break;
        }
    }
    if (!rc) rc = mg_bench_parse(npass, pass, &o->bench, err, errlen);
    free(pass);
    if (rc) return rc;
    if (o->bench.sync == MG_SYNC_WINDOW)
        return mg_perr_fail(&e, "--proc-sync",
                            "window needs fixed repetition counts; use roundtime, "
                            "dissemination or mpibarrier for nrep");
    /* methods, then their thresholds and windows in the same order */
    int order[MG_NREP_NMETHODS], nm = 0;
    if (methods) {
        char items[8][32];
        int n = split(methods, items, 8);
        if (n < 0)
            return mg_perr_fail(&e, "--pred-method", "'%s' is not a list of methods", methods);
        o->rule.methods = 0;
        for (int i = 0; i < n; i++) {
            int m = -1;
            for (int k = 0; k < MG_NREP_NMETHODS; k++)
                if (!strcmp(items[i], method_names[k])) m = k;
            if (!strcmp(items[i], "hpcasia")) {
                if (n > 1)
                    return mg_perr_fail(&e, "--pred-method",
                                        "hpcasia cannot be combined with others");
                o->hpcasia = 1;
                continue;
            }
            if (m < 0)
                return mg_perr_fail(&e, "--pred-method",
                                    "unknown method '%s' (rse, cov_mean, cov_median, hpcasia)",
                                    items[i]);
            if (!(o->rule.methods & (1u << m))) order[nm++] = m;
            o->rule.methods |= 1u << m;
        }
    } else {
        order[nm++] = MG_NREP_RSE;
    }
    if (thres) {
        if (o->hpcasia) return mg_perr_fail(&e, "--var-thres", "not used by hpcasia (--t1-thres)");
        char items[8][32];
        int n = split(thres, items, 8);
        if (n < 0 || (n != 1 && n != nm))
            return mg_perr_fail(&e, "--var-thres", "give one threshold or one per method (%d)", nm);
        for (int i = 0; i < nm; i++) {
            double d;
            int rc2 = num(&e, "--var-thres", items[n == 1 ? 0 : i], 1e-9, 10.0, &d);
            if (rc2) return rc2;
            o->rule.thres[order[i]] = d;
        }
    }
    if (wins) {
        int ncov = 0, cov[MG_NREP_NMETHODS];
        for (int i = 0; i < nm; i++)
            if (order[i] != MG_NREP_RSE) cov[ncov++] = order[i];
        char items[8][32];
        int n = split(wins, items, 8);
        if (o->hpcasia || ncov == 0)
            return mg_perr_fail(&e, "--var-win",
                                "only the cov_mean and cov_median methods use windows");
        if (n < 0 || (n != 1 && n != ncov))
            return mg_perr_fail(&e, "--var-win", "give one window or one per COV method (%d)",
                                ncov);
        for (int i = 0; i < ncov; i++) {
            int64_t w;
            int rc2 = inum(&e, "--var-win", items[n == 1 ? 0 : i], 2, 100000, &w);
            if (rc2) return rc2;
            o->rule.win[cov[i]] = (int)w;
        }
    }
    if (o->hpcasia && !o->bounds_given) {
        o->rule.min = 10;
        o->rule.max = 100000;
        o->rule.step = 1;
    }
    return 0;
}

void mg_nrep_opts_free(mg_nrep_opts *o) {
    mg_bench_opts_free(&o->bench);
}

void mg_nrep_write_method(FILE *f, const mg_nrep_opts *o) {
    const mg_nrep_rule *r = &o->rule;
    if (o->hpcasia) {
        fprintf(f, "#@method=hpcasia\n#@thresholds=t1_rse:%g,batch_rse:%g\n", o->t1_thres,
                o->batch_thres);
        fprintf(f, "#@batches=b1:%lld,b2:%lld\n#@k=%lld\n", (long long)o->b1, (long long)o->b2,
                (long long)o->k);
    } else {
        const char *sep = "";
        fprintf(f, "#@method=");
        for (int m = 0; m < MG_NREP_NMETHODS; m++)
            if (r->methods & (1u << m)) fprintf(f, "%s%s", sep, method_names[m]), sep = ",";
        fprintf(f, "\n#@thresholds=");
        sep = "";
        for (int m = 0; m < MG_NREP_NMETHODS; m++)
            if (r->methods & (1u << m))
                fprintf(f, "%s%s:%g", sep, method_names[m], r->thres[m]), sep = ",";
        fprintf(f, "\n");
        if (r->methods & ~(1u << MG_NREP_RSE)) {
            fprintf(f, "#@windows=");
            sep = "";
            for (int m = MG_NREP_COV_MEAN; m < MG_NREP_NMETHODS; m++)
                if (r->methods & (1u << m))
                    fprintf(f, "%s%s:%d", sep, method_names[m], r->win[m]), sep = ",";
            fprintf(f, "\n");
        }
    }
    fprintf(f, "#@bounds=min:%lld,max:%lld,step:%lld\n#@predictions=%d\n", (long long)r->min,
            (long long)r->max, (long long)r->step, o->predictions);
}

const char mg_nrep_usage[] =
    "usage: mpirun -np P mpiguide nrep [options]\n"
    "Predicts the observations each (call, msize) needs and writes `test msize nrep` rows\n"
    "(read by bench --nrep-file and by the checker). docs/benchmark.md has the methods.\n"
    "\n"
    "  --pred-method=rse,cov_mean,cov_median   PGMPI methods, all must pass (default rse)\n"
    "  --pred-method=hpcasia                   the HPC Asia 2018 method\n"
    "  --var-thres=T[,T...]        thresholds in method order (default rse 0.025, cov 0.01)\n"
    "  --var-win=W[,W...]          windows of the COV methods (default 20)\n"
    "  --rep-prediction=min=N,max=N,step=N     bounds (default 20,1000,10; hpcasia 10,100000,1)\n"
    "  --predictions=N             predictions per (call, msize); the maximum is written\n"
    "  --t1-thres=T                hpcasia: RSE of the 1-byte phase (default 0.01)\n"
    "  --batch-thres=T             hpcasia: RSE that makes batch b2 unnecessary (default 0.05)\n"
    "  --b1=N --b2=N --k=K         hpcasia: batch sizes (5, 5) and minimum nrep (10)\n"
    "  --calls-list, --algs, --msizes-list, --msize-interval, --root, --op, --datatype,\n"
    "  --proc-sync (not window), --runtime-type, --warmup, --fitpoints, --exchanges,\n"
    "  --rt-barrier-count, --seed, --quiet, --output-file   as for bench\n"
    "With several algorithms (--algs) the largest prediction is written.\n";

/* ---- the predicted-nrep file ---- */
int mg_nrep_table_parse(const char *text, const char *fname, mg_nrep_table *t, char *err,
                        size_t errlen) {
    t->n = 0;
    t->e = NULL;
    int line = 0, cap = 0;
    const char *p = text;
    while (*p) {
        line++;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char buf[512];
        if (len >= sizeof buf) {
            snprintf(err, errlen, "%s:%d: line too long", fname, line);
            goto bad;
        }
        memcpy(buf, p, len);
        buf[len] = 0;
        p += len + (nl ? 1 : 0);
        char *s = buf;
        while (isspace((unsigned char)*s)) s++;
        if (!*s || *s == '#') continue;
        char test[128], extra[8];
        long long msize, nrep;
        int k = sscanf(s, "%127s %lld %lld %7s", test, &msize, &nrep, extra);
        if (k != 3 || msize < 0 || nrep < 1) {
            snprintf(err, errlen, "%s:%d: expected `test msize nrep` (nrep >= 1)", fname, line);
            goto bad;
        }
        int coll = mg_coll_lookup(test);
        if (coll < 0) {
            snprintf(err, errlen, "%s:%d: unknown collective '%s'", fname, line, test);
            goto bad;
        }
        int found = 0;
        for (int i = 0; i < t->n; i++)
            if (t->e[i].coll == coll && t->e[i].msize == msize) {
                if (nrep > t->e[i].nrep) t->e[i].nrep = nrep;
                found = 1;
            }
        if (found) continue;
        if (t->n == cap) {
            cap = cap ? 2 * cap : 64;
            mg_nrep_entry *ne = realloc(t->e, sizeof *ne * (size_t)cap);
            if (!ne) {
                snprintf(err, errlen, "%s: out of memory", fname);
                goto bad;
            }
            t->e = ne;
        }
        t->e[t->n++] = (mg_nrep_entry){coll, msize, nrep};
    }
    return 0;
bad:
    mg_nrep_table_free(t);
    return 2;
}

int64_t mg_nrep_table_get(const mg_nrep_table *t, int coll, int64_t msize) {
    for (int i = 0; i < t->n; i++)
        if (t->e[i].coll == coll && t->e[i].msize == msize) return t->e[i].nrep;
    return -1;
}

void mg_nrep_table_free(mg_nrep_table *t) {
    free(t->e);
    t->e = NULL;
    t->n = 0;
}
