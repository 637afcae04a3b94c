/* Options of `mpiguide nrep`: its own (methods, thresholds, windows, bounds, the HPC Asia
 * parameters) and the benchmark options a prediction shares with `bench`, passed on to the bench
 * parser; a bench-only option is rejected by name. */
#include "nrep.h"
#include "util/optval.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    "calls-list",
    "algs",
    "msizes-list",
    "msize-interval",
    "root",
    "root-proc",
    "op",
    "operation",
    "datatype",
    "proc-sync",
    "runtime-type",
    "output-file",
    "quiet",
    "warmup",
    "seed",
    "fitpoints",
    "exchanges",
    "rt-barrier-count",
    "rt-bench-time-ms",
    "watchdog",
    "help",
};

enum nrep_opt {
    N_NONE, /* not an nrep option */
    N_METHOD,
    N_THRES,
    N_WIN,
    N_BOUNDS,
    N_PREDICTIONS,
    N_T1_THRES,
    N_BATCH_THRES,
    N_B1,
    N_B2,
    N_K
};

static const struct {
    const char *name;
    enum nrep_opt id;
} nopts[] = {
    {"pred-method", N_METHOD},
    {"var-thres", N_THRES},
    {"var-win", N_WIN},
    {"rep-prediction", N_BOUNDS},
    {"predictions", N_PREDICTIONS},
    {"t1-thres", N_T1_THRES},
    {"batch-thres", N_BATCH_THRES},
    {"b1", N_B1},
    {"b2", N_B2},
    {"k", N_K},
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
        int rc = mg_opt_i64(e, opt, eq + 1, 1, 10000000, 0, &x);
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
        enum nrep_opt id = N_NONE;
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
        case N_NONE:
            break;
        case N_METHOD:
            methods = v;
            break;
        case N_THRES:
            thres = v;
            break;
        case N_WIN:
            wins = v;
            break;
        case N_BOUNDS:
            rc = rep_bounds(&e, opt, v, &o->rule);
            o->bounds_given = 1;
            break;
        case N_PREDICTIONS:
            if (!(rc = mg_opt_i64(&e, opt, v, 1, 1000, 0, &x))) o->predictions = (int)x;
            break;
        case N_T1_THRES:
            if (!(rc = mg_opt_double(&e, opt, v, 1e-9, 1.0, &d))) o->t1_thres = d;
            break;
        case N_BATCH_THRES:
            if (!(rc = mg_opt_double(&e, opt, v, 1e-9, 1.0, &d))) o->batch_thres = d;
            break;
        case N_B1:
            rc = mg_opt_i64(&e, opt, v, 2, 1000000, 0, &o->b1);
            break;
        case N_B2:
            rc = mg_opt_i64(&e, opt, v, 0, 1000000, 0, &o->b2);
            break;
        case N_K:
            rc = mg_opt_i64(&e, opt, v, 1, 10000000, 0, &o->k);
            break;
        }
    }
    if (!rc) rc = mg_bench_parse(npass, pass, &o->bench, err, errlen);
    free(pass);
    if (rc) return rc;
    if (o->bench.time_ms <= 0) o->bench.time_ms = MG_NREP_DEFAULT_BUDGET_MS;
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
                if (!strcmp(items[i], mg_nrep_method_names[k])) m = k;
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
            int rc2 = mg_opt_double(&e, "--var-thres", items[n == 1 ? 0 : i], 1e-9, 10.0, &d);
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
            int rc2 = mg_opt_i64(&e, "--var-win", items[n == 1 ? 0 : i], 2, 100000, 0, &w);
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
            if (r->methods & (1u << m)) fprintf(f, "%s%s", sep, mg_nrep_method_names[m]), sep = ",";
        fprintf(f, "\n#@thresholds=");
        sep = "";
        for (int m = 0; m < MG_NREP_NMETHODS; m++)
            if (r->methods & (1u << m))
                fprintf(f, "%s%s:%g", sep, mg_nrep_method_names[m], r->thres[m]), sep = ",";
        fprintf(f, "\n");
        if (r->methods & ~(1u << MG_NREP_RSE)) {
            fprintf(f, "#@windows=");
            sep = "";
            for (int m = MG_NREP_COV_MEAN; m < MG_NREP_NMETHODS; m++)
                if (r->methods & (1u << m))
                    fprintf(f, "%s%s:%d", sep, mg_nrep_method_names[m], r->win[m]), sep = ",";
            fprintf(f, "\n");
        }
    }
    fprintf(f, "#@bounds=min:%lld,max:%lld,step:%lld\n#@predictions=%d\n", (long long)r->min,
            (long long)r->max, (long long)r->step, o->predictions);
    fprintf(f, "#@rt_bench_time_ms=%g\n", o->bench.time_ms);
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
    "  --rt-bench-time-ms=T        time budget of one prediction (default 5000); when it\n"
    "                              runs out first, the observations made so far are the\n"
    "                              prediction and a warning says so\n"
    "  --t1-thres=T                hpcasia: RSE of the 1-byte phase (default 0.01)\n"
    "  --batch-thres=T             hpcasia: RSE that makes batch b2 unnecessary (default 0.05)\n"
    "  --b1=N --b2=N --k=K         hpcasia: batch sizes (5, 5) and minimum nrep (10)\n"
    "  --calls-list, --algs, --msizes-list, --msize-interval, --root, --op, --datatype,\n"
    "  --proc-sync (not window), --runtime-type, --warmup, --fitpoints, --exchanges,\n"
    "  --rt-barrier-count, --seed, --quiet, --output-file, --watchdog   as for bench\n"
    "With several algorithms (--algs) the largest prediction is written.\n";
