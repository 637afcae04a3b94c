/* Summaries of a sample: sorting, selection of the median, quantiles as R's type 7, mean and
 * variance, and the order-statistic confidence interval of the median. */
#include "stats.h"
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int mg_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void mg_sort(double *v, size_t n) {
    if (n > 1) qsort(v, n, sizeof *v, mg_cmp_double);
}

double mg_mean(const double *v, size_t n) {
    if (!n) return NAN;
    double s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    double m = s / (double)n;
    /* one correction pass removes most of the rounding of the plain sum */
    double c = 0;
    for (size_t i = 0; i < n; i++) c += v[i] - m;
    return m + c / (double)n;
}

double mg_variance(const double *v, size_t n) {
    if (n < 2) return NAN;
    double m = mg_mean(v, n), ss = 0, c = 0;
    for (size_t i = 0; i < n; i++) {
        double d = v[i] - m;
        ss += d * d;
        c += d;
    }
    return (ss - c * c / (double)n) / (double)(n - 1);
}

/* Puts the k-th smallest value (0-based) at v[k], smaller ones before it, larger after:
 * Hoare partitioning around a median of three, iterating into the side holding k. */
static void select_kth(double *v, size_t n, size_t k) {
    ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
    while (hi > lo) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        double a = v[lo], b = v[mid], c = v[hi];
        double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        ptrdiff_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot) i++;
            while (v[j] > pivot) j--;
            if (i <= j) {
                double t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        }
        /* now v[lo..j] <= pivot <= v[i..hi], j < i, and both sides are smaller than before */
        if (kk <= j)
            hi = j;
        else if (kk >= i)
            lo = i;
        else
            return;
    }
}

double mg_median_inplace(double *v, size_t n) {
    if (!n) return NAN;
    size_t h = n / 2;
    select_kth(v, n, h);
    double upper = v[h];
    if (n % 2) return upper;
    /* the lower middle is the largest value left of h */
    double lower = v[0];
    for (size_t i = 1; i < h; i++)
        if (v[i] > lower) lower = v[i];
    return lower + (upper - lower) / 2;
}

double mg_quantile_sorted(const double *s, size_t n, double prob) {
    if (!n) return NAN;
    double h = (double)(n - 1) * prob;
    size_t lo = (size_t)floor(h);
    if (lo >= n - 1) return s[n - 1];
    double frac = h - (double)lo;
    return s[lo] + frac * (s[lo + 1] - s[lo]);
}

void mg_summarize(const double *v, size_t n, mg_summary *s) {
    s->n = n;
    s->min = s->q1 = s->median = s->q3 = s->max = s->mean = s->sd = NAN;
    if (!n) return;
    double *c = malloc(n * sizeof *c);
    if (c) {
        memcpy(c, v, n * sizeof *c);
        mg_sort(c, n);
        s->min = c[0];
        s->max = c[n - 1];
        s->q1 = mg_quantile_sorted(c, n, 0.25);
        s->median = mg_quantile_sorted(c, n, 0.5);
        s->q3 = mg_quantile_sorted(c, n, 0.75);
        free(c);
    }
    s->mean = mg_mean(v, n);
    s->sd = n > 1 ? sqrt(mg_variance(v, n)) : NAN;
}

void mg_median_ci_sorted(const double *sorted, size_t n, double conf, mg_median_ci *ci) {
    /* coverage of [x_(k), x_(n-k+1)] is 1 - 2 P(B <= k - 1); it falls as k grows, so take
     * the largest k in 1..ceil(n/2) with coverage >= conf (k = 1, the range, if none) by
     * bisection: k = 1 is always taken, and k is admissible iff P(B <= k - 1) <= tail */
    double tail = (1 - conf) / 2;
    size_t good = 1, bad = (n + 1) / 2 + 1; /* invariant: good admissible, bad not (or end) */
    while (bad - good > 1) {
        size_t mid = good + (bad - good) / 2;
        if (mg_pbinom((double)mid - 1, (double)n, 0.5) <= tail)
            good = mid;
        else
            bad = mid;
    }
    ci->k = good;
    ci->lo = sorted[good - 1];
    ci->hi = sorted[n - good];
    double c = 1 - 2 * mg_pbinom((double)good - 1, (double)n, 0.5);
    ci->coverage = c < 0 ? 0 : c;
}
