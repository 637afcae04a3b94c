/* Statistics for the checker (no MPI): summaries, distribution functions, two-sample tests,
 * a nonparametric confidence interval of the median and multiple-testing corrections.
 * Validated against R (tests/fixtures/stats/, docs/statistics.md). */
#ifndef MG_STATS_H
#define MG_STATS_H

#include <stddef.h>

/* The alternative hypothesis of a two-sample test, always about the *values* of x and y:
 * MG_LESS means "x tends to be smaller than y" (for timings: x is faster). This is R's
 * `alternative` of t.test and wilcox.test; for ks.test R names the CDFs instead, so MG_LESS
 * is R's alternative = "greater" there (the CDF of x lies above that of y). */
typedef enum mg_alternative { MG_LESS, MG_GREATER, MG_TWO_SIDED } mg_alternative;

/* Exact or asymptotic p-values. AUTO follows R: Wilcoxon exact when both samples have fewer
 * than 50 values and there are no ties; Kolmogorov-Smirnov exact when nx*ny < 10000. */
typedef enum mg_exactness { MG_EXACT_AUTO, MG_EXACT_NEVER, MG_EXACT_ALWAYS } mg_exactness;

typedef struct mg_test_result {
    double statistic; /* t; W = U of x (R's W); D (one-sided: D+ or D- per the alternative) */
    double p;         /* p-value for the alternative */
    double df;        /* t-tests: degrees of freedom; otherwise 0 */
    double z;         /* Wilcoxon: standardised statistic (with continuity correction when the
                         p-value is asymptotic, without when exact); otherwise 0 */
    int exact;        /* 1 when p is exact */
    int ties;         /* 1 when the pooled sample has ties */
} mg_test_result;

/* ---- summaries ---- */
typedef struct mg_summary {
    size_t n;
    double min, q1, median, q3, max; /* quantiles as R's quantile(type = 7) */
    double mean, sd;                 /* sd with n - 1 (NaN for n < 2) */
} mg_summary;

int mg_cmp_double(const void *a, const void *b); /* qsort comparator, ascending */
void mg_sort(double *v, size_t n);
/* Summary of n values (n may be 0: everything NaN). Does not modify v. */
void mg_summarize(const double *v, size_t n, mg_summary *s);
/* Quantile (R type 7) of already sorted values. */
double mg_quantile_sorted(const double *sorted, size_t n, double prob);
/* Median; reorders v (selection, O(n)); NaN for n = 0. */
double mg_median_inplace(double *v, size_t n);
double mg_mean(const double *v, size_t n);
double mg_variance(const double *v, size_t n); /* n - 1 denominator, two-pass */

/* ---- distributions ---- */
double mg_pnorm(double z, int lower_tail);
/* Regularised incomplete beta I_x(a, b); y = 1 - x is passed separately so callers that
 * know 1 - x accurately keep the precision. */
double mg_pbeta(double x, double y, double a, double b);
double mg_pt(double t, double df, int lower_tail);
double mg_pbinom(double k, double n, double prob); /* P(X <= k), X ~ Bin(n, prob) */
/* Kolmogorov limit distribution: P(sqrt(n) D > lambda) for the two-sided statistic. */
double mg_pkolmogorov_upper(double lambda);

/* ---- two-sample tests (x, y unsorted) ----
 * Each returns 0 with the result, -1 when a sample is too small or holds a NaN (nothing is
 * computed), or MG_TEST_UNDEFINED (t-tests only) when the statistic is undefined; statistic
 * and p are NaN whenever the return is not 0. */
#define MG_TEST_UNDEFINED 1
/* Welch (welch = 1) or pooled-variance (welch = 0) t-test as R's t.test. Needs nx, ny >= 2
 * (pooled: nx + ny >= 3). Where R stops with "data are essentially constant" (the standard
 * error below 10 machine epsilons of the larger absolute mean, e.g. two constant samples)
 * the result is MG_TEST_UNDEFINED. */
int mg_t_test(const double *x, size_t nx, const double *y, size_t ny, int welch, mg_alternative alt,
              mg_test_result *r);
/* Wilcoxon rank-sum / Mann-Whitney U test as R's wilcox.test(x, y, correct = TRUE): average
 * ranks for ties; exact p-values (the permutation distribution of U) without ties; otherwise
 * the normal approximation with tie-corrected variance and continuity correction. */
int mg_wilcox_test(const double *x, size_t nx, const double *y, size_t ny, mg_alternative alt,
                   mg_exactness exact, mg_test_result *r);
/* The same on ascending sorted samples (no copies; O(nx + ny) apart from an exact p). */
int mg_wilcox_test_sorted(const double *x, size_t nx, const double *y, size_t ny,
                          mg_alternative alt, mg_exactness exact, mg_test_result *r);
/* Two-sample Kolmogorov-Smirnov test as R's ks.test (R >= 4.3 semantics): exact p-values by
 * counting lattice paths, also with ties (conditional on the tie pattern), asymptotic
 * otherwise (two-sided: Kolmogorov's limit; one-sided: exp(-2 n D^2)). */
int mg_ks_test(const double *x, size_t nx, const double *y, size_t ny, mg_alternative alt,
               mg_exactness exact, mg_test_result *r);
int mg_ks_test_sorted(const double *x, size_t nx, const double *y, size_t ny, mg_alternative alt,
                      mg_exactness exact, mg_test_result *r);

/* Exact permutation distribution of the Mann-Whitney U: P(U <= u) for sizes m, n (R's
 * pwilcox). Returns NaN when m * n is too large to tabulate (> 1e6). */
double mg_pwilcox(double u, size_t m, size_t n);

/* ---- confidence interval of the median ---- */
typedef struct mg_median_ci {
    double lo, hi;   /* x_(k) and x_(n-k+1) */
    size_t k;        /* order statistic index (1-based) */
    double coverage; /* achieved: 1 - 2 P(B <= k - 1), B ~ Bin(n, 1/2) */
} mg_median_ci;
/* Distribution-free interval from order statistics: the narrowest symmetric pair whose
 * coverage is at least conf (if even the sample range falls short, the range, with its
 * coverage). sorted: ascending, n >= 1. */
void mg_median_ci_sorted(const double *sorted, size_t n, double conf, mg_median_ci *ci);

/* ---- paired batches ---- */
/* An observation with its index (>= 0) in its measurement (the raw row's nrep) and the
 * measurement it belongs to (part: a raw file). */
typedef struct mg_indexed {
    int part;
    long long index;
    double v;
} mg_indexed;
/* The speed-up x over y of two samples measured side by side in batches of `batch`
 * observations (bench --interleave: round r of a measurement ran the indexes [r * batch,
 * (r + 1) * batch) of every algorithm): the median over the rounds both have of median(x's
 * batch) / median(y's batch); a ratio of times, so above 1 when y is faster. Rounds of
 * different parts are different rounds. Arrays in any order, not modified. Returns the number
 * of rounds used, 0 (and NaN) when there is none or memory ran out. */
size_t mg_paired_batch_ratio(const mg_indexed *x, size_t nx, const mg_indexed *y, size_t ny,
                             long long batch, double *ratio);

/* ---- multiple testing ---- */
typedef enum mg_correction { MG_CORR_NONE, MG_CORR_HOLM, MG_CORR_BH } mg_correction;
const char *mg_correction_name(mg_correction c); /* "none", "holm", "bh" */
int mg_correction_parse(const char *s);          /* -1 when unknown */
/* Adjusted p-values as R's p.adjust (NaN entries are left out and stay NaN). Returns -1 on
 * allocation failure. p and adj may be the same array. */
int mg_p_adjust(const double *p, size_t n, mg_correction c, double *adj);

#endif
