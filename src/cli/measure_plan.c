/* The measurement plan of `check` and `tune` (from an input file; `mpiguide plan` writes such
 * files from a record): one set of benchmark options per input line,
 * each validated (collective, every option) before anything is measured. */
#include "measure_plan.h"
#include "check_input.h"
#include "bench/harness.h"
#include "catalog/catalog.h"
#include "util/diag.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mg_check_plan(const char *text, const char *fname, int quiet, int talk, mg_bench_opts **out,
                  int *n) {
    mg_input in;
    char err[600];
    if (mg_input_parse(text, fname, &in, err, sizeof err)) {
        if (talk) mg_error(NULL, "%s", err);
        return 2;
    }
    int rc = mg_plan_of_input(&in, fname, quiet, talk, out, n);
    mg_input_free(&in);
    return rc;
}

/* The algorithms of one line: every one of the collective, or, with --algs on the line, the
 * default and those named (a shorter launch where whole families are not wanted; the
 * guidelines of the others stay unchecked and check says which). `tuned` has no place here: it
 * is tune's validation, and check's analysis compares algorithms against the default. */
static int line_algs(mg_bench_opts *o, const char *where, int talk) {
    char w[300];
    snprintf(w, sizeof w, "%s: --algs", where);
    if (!o->algs_given) {
        for (int k = 0; k < o->nalgs; k++) free(o->algs[k]);
        o->nalgs = 0;
    }
    for (int k = 0; k < o->nalgs; k++)
        if (!strcmp(o->algs[k], MG_ALG_TUNED)) {
            if (talk)
                mg_error(w, "'tuned' cannot be measured by check or tune (tune validates it)");
            return 2;
        }
    /* library algorithm names are known once MPI has started: check looks at them then, before
     * its first measurement (check_algs_named), tune's launches in their own start */
    if (o->algs_given && mg_check_alg_names(o, talk ? 0 : 1, w, 1)) return 2;
    /* the default first: it is one side of every comparison */
    char **a = realloc(o->algs, sizeof(char *) * (size_t)(o->nalgs + 1));
    if (!a) return 1;
    o->algs = a;
    memmove(a + 1, a, sizeof(char *) * (size_t)o->nalgs);
    a[0] = strdup(o->algs_given ? MG_ALG_DEFAULT : MG_ALG_ALL);
    o->nalgs++;
    return a[0] ? 0 : 1;
}

int mg_plan_of_input(const mg_input *input, const char *fname, int quiet, int talk,
                     mg_bench_opts **out, int *n) {
    const mg_input in = *input;
    char err[600];
    if (in.n == 0) {
        if (talk) mg_error(fname, "no collective listed");
        return 2;
    }
    int lines = in.n;
    mg_bench_opts *v = calloc((size_t)lines, sizeof *v);
    int rc = v ? 0 : 1;
    for (int i = 0; i < in.n && !rc; i++) {
        const mg_input_line *l = &in.lines[i];
        char where[256];
        snprintf(where, sizeof where, "%s:%d", fname, l->lineno);
        int coll = mg_coll_lookup(l->call);
        if (coll < 0) {
            if (talk) mg_error(where, "%s: unknown collective", l->call);
            rc = 2;
            break;
        }
        /* the line's collective is known before its options, so they are checked for it (an
         * op only matters to a reduction) */
        mg_bench_defaults(&v[i]);
        v[i].calls = malloc(sizeof(int));
        if (!v[i].calls) {
            rc = 1;
            break;
        }
        v[i].calls[0] = coll;
        v[i].ncalls = 1;
        if (mg_bench_parse(l->argc, l->argv, &v[i], err, sizeof err)) {
            if (talk) mg_error(where, "%s", err);
            rc = 2;
            break;
        }
        free(v[i].calls);
        v[i].calls = malloc(sizeof(int));
        v[i].calls[0] = coll;
        v[i].ncalls = 1;
        if ((rc = line_algs(&v[i], where, talk))) break;
        v[i].shuffle = 1; /* interleaved order, so drift does not favour one algorithm */
        /* and the algorithms of one size side by side, in batches of 10 (bench --interleave):
         * a slow period of the machine then falls on all of them alike; the sizes in turn too
         * (--spread), so that each size sees the whole launch, not one of its stretches */
        if (!v[i].interleave_given && !v[i].table) {
            v[i].interleave = 10;
            v[i].spread = 1;
        }
        v[i].quiet = quiet;
    }
    if (rc) {
        mg_check_plan_free(v, lines);
        return rc;
    }
    *out = v;
    *n = lines;
    return 0;
}

void mg_line_stem(const int *colls, int i, char *buf, size_t len) {
    /* MPI_Barrier.dat is the launch's synchronisation noise (rawdata/dataset.h MG_BARRIER_NOISE):
     * MPI_Barrier lines of the input start at MPI_Barrier-2.dat */
    int k = colls[i] == MG_CAT_BARRIER ? 2 : 1;
    for (int j = 0; j < i; j++) k += colls[j] == colls[i];
    if (k == 1)
        snprintf(buf, len, "%s", mg_coll_name(colls[i]));
    else
        snprintf(buf, len, "%s-%d", mg_coll_name(colls[i]), k);
}

void mg_check_plan_free(mg_bench_opts *v, int n) {
    for (int i = 0; i < n && v; i++) mg_bench_opts_free(&v[i]);
    free(v);
}

void mg_run_opts_init(mg_run_opts *o) {
    *o = (mg_run_opts){0};
    mg_analyze_opts_init(&o->an);
}

int mg_run_opts_parse(int argc, char **argv, int i, mg_run_opts *o, const char *cmd) {
    const char *a = argv[i];
    if ((!strcmp(a, "-f") || !strcmp(a, "-o")) && i + 1 < argc) {
        *(a[1] == 'f' ? &o->input : &o->outdir) = argv[i + 1];
        return 2;
    }
    if (!strcmp(a, "--quiet")) {
        o->quiet = 1;
        return 1;
    }
    int used = mg_analyze_parse_flag(argc, argv, i, &o->an);
    if (used == 0) mg_error(a, "unknown option of %s", cmd);
    return used > 0 ? used : -1;
}

int mg_run_opts_require(const mg_run_opts *o, const char *cmd) {
    if (o->input && o->outdir) return 0;
    mg_error(cmd, "-f INPUT and -o OUTDIR are required");
    return 2;
}
