/* NREP stop rules: how many observations a measurement needs (PGMPI, Euro-Par 2016: RSE, COV of
 * the last w means, COV of the last w medians; PGMPITuneLib, HPC Asia 2018: time of the 1-byte
 * measurement over the minimum latency). Pure functions of the observation sequence: the
 * benchmark feeds observations and acts on the answers (bench/nrep.h: options and file). */
#ifndef MG_NREP_RULE_H
#define MG_NREP_RULE_H

#include <stddef.h>
#include <stdint.h>

enum { MG_NREP_RSE, MG_NREP_COV_MEAN, MG_NREP_COV_MEDIAN, MG_NREP_NMETHODS };
extern const char *const mg_nrep_method_names[MG_NREP_NMETHODS]; /* "rse", ... */

typedef struct mg_nrep_rule {
    unsigned methods; /* bit 1 << MG_NREP_*; all selected must pass */
    double thres[MG_NREP_NMETHODS];
    int win[MG_NREP_NMETHODS]; /* windows of the COV methods */
    int64_t min, max, step;    /* evaluate at min, min + step, ...; stop at max anyway */
} mg_nrep_rule;

/* The running state of one prediction: mean and variance (Welford), the running median (two
 * heaps) and the windows of the last w running means and medians. Allocated once, at begin. */
typedef struct mg_nrep_state {
    mg_nrep_rule r;
    int64_t n;
    double mean, m2;
    double *lo, *hi; /* max-heap of the lower half, min-heap of the upper half */
    int64_t nlo, nhi;
    double *means, *medians;          /* rings of the last w values */
    double rse, cov_mean, cov_median; /* last values (NaN until defined) */
    int done; /* mg_nrep_add returned 1: the rule passed or max was reached */
} mg_nrep_state;

void mg_nrep_rule_default(mg_nrep_rule *r); /* rse 0.025; cov 0.01, w 20; 20..1000 step 10 */
int mg_nrep_begin(mg_nrep_state *s, const mg_nrep_rule *r); /* 0, or -1 out of memory */
/* Adds one observation; 1 when the prediction stops after it (the rule passed at an evaluation
 * point, or max was reached), else 0. */
int mg_nrep_add(mg_nrep_state *s, double x);
void mg_nrep_end(mg_nrep_state *s);
double mg_nrep_median(const mg_nrep_state *s);

/* Relative standard error of the mean (sd / sqrt(n) / mean; 0 for identical values, +inf for
 * n < 2 or mean 0 with spread) and the coefficient of variation (sd / mean) of n values. */
double mg_nrep_rse_of(const double *v, size_t n);
double mg_nrep_cov_of(const double *v, size_t n);

/* HPC Asia 2018: whether batch b2 is needed after the first b1 latencies (their RSE is not below
 * thres), and nrep = max(ceil(t1 / l), k), capped at max when max > 0 (l <= 0: max, or k). */
int mg_nrep_asia_second_batch(const double *v, size_t b1, double thres);
int64_t mg_nrep_asia(double t1, double l, int64_t k, int64_t max);

#endif
