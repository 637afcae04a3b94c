/* Tuned versus default versus best mock-up, from the raw rows of one validation launch. */
#include "tuned_compare.h"
#include "analyze/format.h"
#include "stats/stats.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Median over every launch's series of (coll, alg, msize); NaN when there are none. */
static double pooled_median(const mg_dataset *ds, int coll, int alg, long long msize) {
    size_t n = 0;
    for (int l = 0; l < ds->nlaunches; l++) {
        const mg_series *s = mg_dataset_find_series(ds, coll, alg, l, msize);
        if (s) n += s->n;
    }
    if (n == 0) return NAN;
    double *v = malloc(n * sizeof *v);
    if (!v) return NAN;
    size_t at = 0;
    for (int l = 0; l < ds->nlaunches; l++) {
        const mg_series *s = mg_dataset_find_series(ds, coll, alg, l, msize);
        if (s) memcpy(v + at, s->v, s->n * sizeof *v), at += s->n;
    }
    double m = mg_median_inplace(v, n);
    free(v);
    return m;
}

static int row_cmp(const void *a, const void *b) {
    const mg_tuned_row *x = a, *y = b;
    int c = strcmp(x->coll, y->coll);
    return c ? c : (x->msize > y->msize) - (x->msize < y->msize);
}

int mg_tuned_rows(const mg_dataset *ds, mg_tuned_row **out) {
    int def = mg_dataset_find_name(ds, "default"), tuned = mg_dataset_find_name(ds, "tuned");
    int n = 0, cap = 0;
    mg_tuned_row *rows = NULL;
    *out = NULL;
    if (def < 0 || tuned < 0) return 0;
    for (size_t i = 0; i < ds->nseries; i++) {
        const mg_series *s = &ds->series[i];
        if (s->alg != tuned) continue;
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = rows[k].msize == s->msize && !strcmp(rows[k].coll, ds->names[s->coll]);
        if (seen) continue;
        double d = pooled_median(ds, s->coll, def, s->msize);
        if (isnan(d)) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            mg_tuned_row *r = realloc(rows, (size_t)cap * sizeof *r);
            if (!r) return free(rows), -1;
            rows = r;
        }
        mg_tuned_row *r = &rows[n++];
        *r = (mg_tuned_row){ds->names[s->coll], s->msize, d, d, 0, "default", 0};
        r->tuned = pooled_median(ds, s->coll, tuned, s->msize);
        for (int a = 0; a < ds->nnames; a++) {
            if (a == tuned || a == def || a == s->coll) continue;
            double m = pooled_median(ds, s->coll, a, s->msize);
            if (!isnan(m) && m < r->best) r->best = m, r->best_alg = ds->names[a];
        }
        r->within = r->tuned <= 1.05 * r->best;
    }
    qsort(rows, (size_t)n, sizeof *rows, row_cmp);
    *out = rows;
    return n;
}

int mg_tuned_print(const mg_tuned_row *rows, int n, FILE *f) {
    static const char *const cols[] = {"collective|collective|l", "size|msize|r",
                                       "default|default_s|r",     "best mock-up|best_alg|l",
                                       "best|best_s|r",           "tuned|tuned_s|r",
                                       "speed-up|speedup|r",      "tuned<=1.05*best|within_5pct|l"};
    mg_table *t = mg_table_new(8, cols);
    int within = 0;
    char a[32], b[32], c[32], d[32], e[32], raw[4][32];
    for (int i = 0; i < n; i++) {
        const mg_tuned_row *r = &rows[i];
        mg_table_row(t);
        mg_table_cell(t, r->coll, r->coll);
        snprintf(raw[0], sizeof raw[0], "%lld", r->msize);
        snprintf(raw[1], sizeof raw[1], "%.9g", r->def);
        snprintf(raw[2], sizeof raw[2], "%.9g", r->best);
        snprintf(raw[3], sizeof raw[3], "%.9g", r->tuned);
        mg_table_cell(t, mg_fmt_size(a, sizeof a, r->msize), raw[0]);
        mg_table_cell(t, mg_fmt_time(b, sizeof b, r->def), raw[1]);
        mg_table_cell(t, r->best_alg, r->best_alg);
        mg_table_cell(t, mg_fmt_time(c, sizeof c, r->best), raw[2]);
        mg_table_cell(t, mg_fmt_time(d, sizeof d, r->tuned), raw[3]);
        mg_table_cellf(t, NULL, "%sx", mg_fmt_num(e, sizeof e, r->def / r->tuned, 3));
        mg_table_cell(t, r->within ? "yes" : "no", r->within ? "yes" : "no");
        within += r->within;
    }
    mg_table_print(t, f);
    mg_table_free(t);
    return within;
}
