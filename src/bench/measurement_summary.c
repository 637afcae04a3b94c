/* Summary statistics of one measurement and the order-statistic interval of its median. */
#include "measurement_summary.h"
#include <math.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Walks the Bin(n, 1/2) distribution function in log space (no factorial overflows) up to the
 * last j whose tail P(B <= j - 1) stays within (1 - conf) / 2. */
size_t mg_bench_median_ci_index(size_t n, double conf, double *coverage) {
    double alpha = (1.0 - conf) / 2.0;
    double logp = -(double)n * log(2.0), cdf = 0.0, tail = exp(logp);
    size_t j = 1;
    for (size_t i = 0; i < (n + 1) / 2; i++) {
        cdf += exp(logp); /* P(B <= i) */
        if (cdf > alpha) break;
        j = i + 1;
        tail = cdf;
        logp += log((double)(n - i) / (double)(i + 1));
    }
    if (coverage) *coverage = 1.0 - 2.0 * tail;
    return j;
}

void mg_bench_summarize(double *v, size_t n, mg_bench_summary *s) {
    s->n = n;
    if (n == 0) {
        s->min = s->median = s->mean = s->max = s->ci_lo = s->ci_hi = NAN;
        s->ci_j = 0;
        s->ci_coverage = NAN;
        return;
    }
    qsort(v, n, sizeof *v, cmp_double);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) sum += v[i];
    s->min = v[0];
    s->max = v[n - 1];
    s->mean = sum / (double)n;
    s->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    s->ci_j = mg_bench_median_ci_index(n, 0.95, &s->ci_coverage);
    s->ci_lo = v[s->ci_j - 1];
    s->ci_hi = v[n - s->ci_j];
}
