/* NREP in the benchmark: the options of `mpiguide nrep` and the predicted-nrep file
 * `test msize nrep` (nrep_options.c, nrep_file.c), over the stop rules of model/nrep_rule.h.
 * Pure: the MPI driver (nrep_run.c) feeds observations and acts on the answers. */
#ifndef MG_BENCH_NREP_H
#define MG_BENCH_NREP_H

#include "model/nrep_rule.h"
#include "options.h"
#include <stdint.h>
#include <stdio.h>

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
