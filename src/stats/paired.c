/* The speed-up of two algorithms measured side by side in interleaved batches: the median over
 * the rounds of the ratio of the two batches' medians (why not the ratio of the two samples'
 * medians: docs/check.md "Validation"). */
#include "stats.h"
#include <math.h>
#include <stdlib.h>

static int by_round(const void *a, const void *b) {
    const mg_indexed *x = a, *y = b;
    if (x->part != y->part) return (x->part > y->part) - (x->part < y->part);
    return (x->index > y->index) - (x->index < y->index);
}

/* A copy of v sorted by part and index; NULL when memory runs out. */
static mg_indexed *sorted_copy(const mg_indexed *v, size_t n) {
    mg_indexed *c = malloc(n * sizeof *c);
    if (!c) return NULL;
    for (size_t i = 0; i < n; i++) c[i] = v[i];
    qsort(c, n, sizeof *c, by_round);
    return c;
}

typedef struct round_id {
    int part;
    long long r;
} round_id;

static round_id round_of(const mg_indexed *o, long long batch) {
    return (round_id){o->part, o->index / batch};
}

static int round_cmp(round_id a, round_id b) {
    if (a.part != b.part) return (a.part > b.part) - (a.part < b.part);
    return (a.r > b.r) - (a.r < b.r);
}

/* The median of the values of v[*i..] in round r (at most cap of them: more only where indexes
 * repeat, in malformed data), advancing *i past the round; NaN when none. */
static double round_median(const mg_indexed *v, size_t n, size_t *i, round_id r, long long batch,
                           double *buf, size_t cap) {
    size_t k = 0;
    while (*i < n && round_cmp(round_of(&v[*i], batch), r) < 0) ++*i;
    for (; *i < n && round_cmp(round_of(&v[*i], batch), r) == 0; ++*i)
        if (k < cap) buf[k++] = v[*i].v;
    return k ? mg_median_inplace(buf, k) : NAN;
}

size_t mg_paired_batch_ratio(const mg_indexed *x, size_t nx, const mg_indexed *y, size_t ny,
                             long long batch, double *ratio) {
    *ratio = NAN;
    if (!nx || !ny || batch < 1) return 0;
    /* a round never holds more values than a sample (and batch comes from a file header) */
    size_t most = nx < ny ? nx : ny, cap = nx > ny ? nx : ny;
    if ((unsigned long long)batch < cap) cap = (size_t)batch;
    mg_indexed *sx = sorted_copy(x, nx), *sy = sorted_copy(y, ny);
    double *r = malloc(most * sizeof *r), *bx = malloc(cap * sizeof *bx),
           *by = malloc(cap * sizeof *by);
    size_t k = 0;
    if (sx && sy && r && bx && by) {
        size_t i = 0, j = 0;
        while (i < nx && j < ny) {
            /* the later of the two next rounds: a round only one side has is skipped */
            round_id rx = round_of(&sx[i], batch), ry = round_of(&sy[j], batch);
            round_id rr = round_cmp(rx, ry) > 0 ? rx : ry;
            double mx = round_median(sx, nx, &i, rr, batch, bx, cap);
            double my = round_median(sy, ny, &j, rr, batch, by, cap);
            if (!isnan(mx) && !isnan(my) && my > 0) r[k++] = mx / my;
        }
        if (k) *ratio = mg_median_inplace(r, k);
    }
    free(sx);
    free(sy);
    free(r);
    free(bx);
    free(by);
    return k;
}
