/* Accessors of the analysis model (model.h) that every step and renderer uses: names, headers,
 * medians. The pipeline (pipeline.c) and the steps call these; nothing here calls them back. */
#include "catalog/catalog.h"
#include "model.h"
#include <math.h>
#include <string.h>
#include <stdio.h>

const char *mg_name(const mg_analysis *a, int idx) {
    return idx >= 0 && idx < a->ds->nnames ? a->ds->names[idx] : "?";
}

int mg_is_sizeless(const char *n) {
    return mg_coll_sizeless(mg_coll_lookup(n));
}

const char *mg_stat_label(int test) {
    static const char *l[] = {"t", "z", "U", "D"};
    return test >= 0 && test < MG_TEST_COUNT ? l[test] : "?";
}

double mg_an_median_sorted(const double *v, size_t n) {
    if (!n) return NAN;
    return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

double mg_an_series_median(const mg_series *s) {
    return s && s->n ? mg_an_median_sorted(s->v, s->n) : NAN;
}

/* median of a few values, v is reordered */
double mg_an_median_of(double *v, int n) {
    return n ? mg_median_inplace(v, (size_t)n) : NAN;
}

/* ---- header values for tables and provenance ---- */

const char *mg_coll_header(const mg_analysis *a, const mg_coll_result *c, const char *key) {
    const char *v = mg_dataset_file_header(a->ds, c->file, key);
    for (int l = 0; l < a->nlaunches && !v; l++) v = mg_dataset_header(a->ds, a->launches[l], key);
    return v ? v : "";
}

void mg_coll_type_suffix(const mg_analysis *a, const mg_coll_result *c, char *buf, size_t n) {
    const char *t = mg_coll_header(a, c, "datatype"), *o = mg_coll_header(a, c, "operation");
    int id = mg_coll_lookup(mg_name(a, c->name)), red = id >= 0 && mg_coll_is_reduction(id);
    if (!c->several)
        snprintf(buf, n, "%s", "");
    else if (!red) /* the op of a collective that is not a reduction tells nothing */
        snprintf(buf, n, "_%s", t[0] ? t : "any");
    else
        snprintf(buf, n, "_%s_%s", t[0] ? t : "any", o[0] ? o : "any");
}

void mg_analyze_opts_init(mg_analyze_opts *o) {
    memset(o, 0, sizeof *o);
    o->comparer = MG_COMP_GROUPED;
    o->test = MG_TEST_RANKSUM;
    o->alpha = 0.05;
    o->min_gain = 0.10;
    o->correction = MG_CORR_HOLM;
    o->out = stdout;
}

const char *mg_comparer_dir(int c) {
    static const char *d[] = {"simple", "absolute", "relative", "violation", "detailed", "grouped"};
    return c >= 0 && c < MG_COMP_COUNT ? d[c] : "?";
}

const char *mg_test_name(int t) {
    static const char *n[] = {"Welch t-test", "Wilcoxon rank-sum", "Wilcoxon-Mann-Whitney",
                              "Kolmogorov-Smirnov"};
    return t >= 0 && t < MG_TEST_COUNT ? n[t] : "?";
}
