/* Summary of one measurement for `bench --summary`: min, median, mean, max and a distribution-
 * free 95 % confidence interval of the median from order statistics. Pure. */
#ifndef MG_BENCH_SUMMARY_H
#define MG_BENCH_SUMMARY_H

#include <stddef.h>

typedef struct mg_bench_summary {
    size_t n; /* values summarised */
    double min, median, mean, max;
    double ci_lo, ci_hi; /* [x_(j), x_(n-j+1)] */
    size_t ci_j;         /* j, 1-based; 0 when n = 0 */
    double ci_coverage;  /* achieved coverage of that interval */
} mg_bench_summary;

/* Sorts v[0..n-1] ascending and summarises it (n = 0: NaN everywhere). */
void mg_bench_summarize(double *v, size_t n, mg_bench_summary *s);
/* Largest j >= 1 whose interval [x_(j), x_(n-j+1)] covers the median with probability at least
 * conf (1 - 2 P(B <= j - 1), B ~ Bin(n, 1/2)); j = 1 when even the range falls short (n < 6
 * for 95 %). *coverage receives the achieved coverage. n >= 1. */
size_t mg_bench_median_ci_index(size_t n, double conf, double *coverage);

#endif
