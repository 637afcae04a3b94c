/* NREP: how many observations a measurement needs (PGMPI, Euro-Par 2016: RSE, COV of the last w
 * means, COV of the last w medians; PGMPITuneLib, HPC Asia 2018: time of the 1-byte
 * measurement over the minimum latency), the options of `mpiguide nrep` and the predicted-nrep
 * file `test msize nrep` (nrep_rule.c, nrep_options.c, nrep_file.c). Pure: the MPI driver feeds
 * observations and acts on the answers. */
#ifndef MG_BENCH_NREP_H
#define MG_BENCH_NREP_H

#include "options.h"
#include <stdint.h>
#include <stdio.h>

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

/* ---- `mpiguide nrep` options ---- */
/* Time budget of one prediction when --rt-bench-time-ms is not given: a rule that never holds
 * (heavy-tailed timings on a loaded machine) would otherwise run to the maximum count, and
 * with round-time synchronisation every observation there waits for the agreed start. */
#define MG_NREP_DEFAULT_BUDGET_MS 5000.0

typedef struct mg_nrep_opts {
    mg_bench_opts bench; /* calls, algorithms, sizes, sync, datatype, op, root, output ... */
    mg_nrep_rule rule;
    int hpcasia;
    double t1_thres, batch_thres;
    int64_t b1, b2, k;
    int predictions; /* repeat each prediction and take the maximum */
    int bounds_given;
} mg_nrep_opts;

/* Parses argv[0..argc-1] into o (defaults set here). 0, or 2 with "OPTION: problem" in err. */
int mg_nrep_parse(int argc, char *const *argv, mg_nrep_opts *o, char *err, size_t errlen);
void mg_nrep_opts_free(mg_nrep_opts *o);
extern const char mg_nrep_usage[];
/* The header lines of a predicted-nrep file describing the method (#@method=, thresholds ...). */
void mg_nrep_write_method(FILE *f, const mg_nrep_opts *o);

/* ---- predicted-nrep file: `test msize nrep` rows, `#` lines skipped ---- */
typedef struct mg_nrep_entry {
    int coll;
    int64_t msize, nrep;
} mg_nrep_entry;

typedef struct mg_nrep_table {
    int n;
    mg_nrep_entry *e;
} mg_nrep_table;

/* Parses a file's text; a (test, msize) listed twice keeps the larger nrep (files of several
 * predictions can be concatenated). 0, or 2 with "FILE:LINE: problem" in err. */
int mg_nrep_table_parse(const char *text, const char *fname, mg_nrep_table *t, char *err,
                        size_t errlen);
int64_t mg_nrep_table_get(const mg_nrep_table *t, int coll, int64_t msize); /* -1: absent */
void mg_nrep_table_free(mg_nrep_table *t);

#endif
