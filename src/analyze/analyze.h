/* The options of the analysis of raw benchmark data (no MPI): comparers, tests, levels, the
 * correction (docs/dev/interfaces.md section 7). The analysis is model.h's; reading directories
 * and writing every output is report/report.h's. docs/check.md describes every rule. */
#ifndef MG_ANALYZE_H
#define MG_ANALYZE_H

#include "stats/stats.h"
#include <stdio.h>

enum mg_comparer {
    MG_COMP_SIMPLE,    /* 0: n, min, median, mean, max per algorithm */
    MG_COMP_ABSOLUTE,  /* 1: median per algorithm */
    MG_COMP_RELATIVE,  /* 2: default median / algorithm median */
    MG_COMP_VIOLATION, /* 3: test of each mock-up against the default */
    MG_COMP_DETAILED,  /* 4: the same with default and mock-up side by side, slowdown */
    MG_COMP_GROUPED,   /* 5: one row per (collective, size): fastest violating mock-up */
    MG_COMP_COUNT
};

enum mg_testkind {
    MG_TEST_T,       /* 0: Welch t-test (statistic t) */
    MG_TEST_RANKSUM, /* 1: Wilcoxon rank-sum, tie-corrected (statistic z) */
    MG_TEST_WMW,     /* 2: Wilcoxon-Mann-Whitney (statistic U of the mock-up) */
    MG_TEST_KS,      /* 3: Kolmogorov-Smirnov (statistic D+) */
    MG_TEST_COUNT
};

typedef struct mg_analyze_opts {
    int comparer;             /* -c, default MG_COMP_GROUPED */
    int test;                 /* -t, default MG_TEST_RANKSUM */
    int merge;                /* -m: tables/merged.csv (all collectives, comparer -c) */
    int csv;                  /* -s: a .csv beside every .txt table */
    int verbose;              /* -v: comparer -c's tables on the terminal */
    double alpha;             /* --alpha, family-wise (Holm) or FDR (BH) level, default 0.05 */
    double min_gain;          /* --min-gain, default 0.10: profile entries save >= this fraction */
    int exit_code;            /* --exit-code: return 3 when pattern violations were found */
    mg_correction correction; /* --correction, default Holm */
    const char *outdir;       /* -o: where results go; NULL: the first directory analysed */
    FILE *out;                /* terminal output (stdout); NULL: silent */
    FILE *verdict;            /* the short verdict (tune's last lines); NULL: none */
} mg_analyze_opts;

void mg_analyze_opts_init(mg_analyze_opts *o);
const char *mg_comparer_dir(int comparer); /* "simple", ..., "grouped" */
const char *mg_test_name(int test);

#endif
