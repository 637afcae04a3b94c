/* The speed-up of two algorithms measured side by side in interleaved batches (bench
 * --interleave): the median over the rounds of the ratio of the two batches' medians. Why not
 * the ratio of the two samples' medians: on a virtual machine the times are often bimodal (the
 * machine's speed changes in steps of tens to hundreds of milliseconds), and the median of
 * each sample can fall into a different step, although every round ran both algorithms in the
 * same step. Measured: Open MPI 4.1, 2 ranks, MPI_Alltoall of 64 KiB through the interception
 * without a profile entry against the library's own collective: windows of 100 observations
 * read 0.98-1.01 apart from one at 0.79, and the ratio of medians read 0.85. */
#include "stats.h"
#include <math.h>
#include <stdlib.h>

static int by_index(const void *a, const void *b) {
    long long x = ((const mg_indexed *)a)->index, y = ((const mg_indexed *)b)->index;
    return (x > y) - (x < y);
}

/* A copy of v sorted by index; NULL when memory runs out. */
static mg_indexed *sorted_copy(const mg_indexed *v, size_t n) {
    mg_indexed *c = malloc((n ? n : 1) * sizeof *c);
    if (!c) return NULL;
    for (size_t i = 0; i < n; i++) c[i] = v[i];
    qsort(c, n, sizeof *c, by_index);
    return c;
}

/* The median of the values of v[*i..] in round r, advancing *i past them; NaN when none. */
static double round_median(const mg_indexed *v, size_t n, size_t *i, long long r, long long batch,
                           double *buf) {
    size_t k = 0;
    while (*i < n && v[*i].index / batch < r) ++*i;
    for (; *i < n && v[*i].index / batch == r; ++*i)
        if (k < (size_t)batch) buf[k++] = v[*i].v; /* more only in malformed data */
    return k ? mg_median_inplace(buf, k) : NAN;
}

size_t mg_paired_batch_ratio(const mg_indexed *x, size_t nx, const mg_indexed *y, size_t ny,
                             long long batch, double *ratio) {
    *ratio = NAN;
    if (!nx || !ny || batch < 1) return 0;
    mg_indexed *sx = sorted_copy(x, nx), *sy = sorted_copy(y, ny);
    size_t most = nx < ny ? nx : ny;
    double *r = malloc(most * sizeof *r);
    double *buf = malloc((size_t)batch * 2 * sizeof *buf); /* one batch of each */
    size_t k = 0;
    if (sx && sy && r && buf) {
        size_t i = 0, j = 0;
        while (i < nx && j < ny) {
            /* the next round either has; a round only one has is skipped */
            long long rx = sx[i].index / batch, ry = sy[j].index / batch;
            long long rr = rx > ry ? rx : ry;
            double mx = round_median(sx, nx, &i, rr, batch, buf);
            double my = round_median(sy, ny, &j, rr, batch, buf + batch);
            if (!isnan(mx) && !isnan(my) && my > 0) r[k++] = mx / my;
        }
        if (k) *ratio = mg_median_inplace(r, k);
    }
    free(sx);
    free(sy);
    free(r);
    free(buf);
    return k;
}
