/* The analysis model: raw series merged over launches into one cell per (collective, size,
 * algorithm), the tests against the default, the guideline checks and the counts the
 * summary, profiles and report are written from. Internal to src/analyze (and its tests). */
#ifndef MG_MODEL_H
#define MG_MODEL_H

#include "analyze.h"
#include "rawdata/dataset.h"

#define MG_SPLIT_TOLERANCE 0.05 /* PGMPI: k T(m_i) must undercut T(m_j) by more than 5 % */

typedef struct mg_cell {
    int alg;                   /* name index */
    int library;               /* one of the MPI library's own algorithms (`*_lib_*`) */
    const mg_series **series;  /* per check launch (NULL where absent) */
    int nlaunches;             /* check launches with observations */
    size_t nobs, nflagged;     /* valid observations over all launches; flagged rows */
    double median;             /* median of the per-launch medians */
    double lmed_min, lmed_max; /* range of the per-launch medians */
    double mean, min, max;     /* over all observations */
    double ci_lo, ci_hi;       /* 95 % CI of the median of the pooled observations */
    /* against the default (mock-ups only) */
    int tested;          /* a test ran in at least one launch */
    int tested_launches; /* launches where both had >= 2 observations */
    int faster_launches; /* of those, launches where this median < the default's */
    double stat, p;      /* statistic and p-value of the least significant launch */
    double p_adj;        /* after the correction over all pattern tests */
    double slowdown;     /* default median / this median */
    int violation;       /* mock-up: significant after correction, and faster by the median */
    int opportunity;     /* library algorithm: the same (a tuning opportunity, no violation) */
    int barrier_warning; /* |median difference| < one MPI_Barrier */
    /* tuned validation (OUTDIR/tuned/) */
    double tuned_median; /* NaN when not measured there */
} mg_cell;

/* What the validation of the tuned library (OUTDIR/tuned/) says about one size. */
enum mg_val {
    MG_VAL_NONE,     /* no validation data: the candidate stands (analyze of a plain check) */
    MG_VAL_KEPT,     /* a profile entry, significantly faster in every validation launch */
    MG_VAL_REJECTED, /* a candidate entry that did not hold up: removed from the profile */
    MG_VAL_NOENTRY   /* no entry: tuned is the library's own collective (no-regression row) */
};

typedef struct mg_point { /* one collective at one message size */
    long long msize;
    mg_cell *cells;
    int ncells;
    int def;                     /* index of the default cell, -1 when the default is missing */
    int best;                    /* fastest violating mock-up (brave), -1 */
    int best_lib;                /* fastest library algorithm that is an opportunity, -1 */
    int profile;                 /* cell chosen for the profile (violation or opportunity and
                                  * >= min-gain, the fastest of either kind), -1 */
    int candidate;               /* the profile cell before the validation, -1 */
    int checked;                 /* default and at least one tested mock-up */
    int lib_checked;             /* default and at least one tested library algorithm */
    double tuned, tuned_default; /* medians of the tuned validation, NaN when absent */
    size_t tuned_n;
    /* the validation (validate.c), per launch default / tuned paired by rounds (launch_ratio) */
    int val;                  /* enum mg_val */
    int val_launches;         /* validation launches with both series (>= 2 observations) */
    int val_expected;         /* validation launches that measured this collective */
    int val_faster;           /* of those tested, launches where tuned was faster (speed-up > 1) */
    double val_p, val_p_adj;  /* largest launch p-value of "tuned faster"; after correction */
    double val_speedup;       /* median over the launches of the per-launch speed-up */
    double val_speedup_min;   /* the smallest per-launch speed-up */
    int set_aside;            /* check launches set aside here as disturbed (disturbed.c) */
    unsigned long long aside; /* which: bit l for check launch l (the first 64) */
    int val_set_aside;        /* validation launches set aside here as disturbed */
} mg_point;

typedef struct mg_mono { /* monotony between adjacent sizes of the default */
    long long m_lo, m_hi;
    double med_lo, med_hi;
    int tested;
    double stat, p, p_adj;
    int violation; /* the larger size significantly faster */
} mg_mono;

typedef struct mg_split { /* a split-robustness violation at m_j (largest m_i reported) */
    long long m_i, m_j;
    long long k;
    double med_i, med_j; /* k med_i (1 + tolerance) < med_j */
} mg_split;

typedef struct mg_coll_result {
    int name;       /* name index, e.g. "MPI_Bcast" */
    int nprocs;     /* communicator size: of its raw rows, else the headers; 0 when unknown */
    int p_key;      /* the series' communicator size (0: the files said none) */
    int variant;    /* ... and their datatype and op (mg_series.variant) */
    int several;    /* another collective result has the same name and size (other types) */
    int file;       /* raw file of its first series: datatype, op, roots, timing mode */
    char stem[256]; /* "MPI_Bcast", "MPI_Bcast_p2" when the collective has several sizes, and
                     * "MPI_Bcast_p2_MPI_INT_MPI_SUM" when also several types (mg_coll_type_suffix)
                     */
    char nodes[32], ppn[32]; /* of its communicator (#@comm_layout), else the job's */
    mg_point *points;        /* ascending msize */
    int npoints;
    mg_mono *mono;
    int nmono;
    mg_split *split;
    int nsplit;
    int nviol_brave, nviol_cautious; /* sizes with a violation */
    int nchecked;
    double quality;         /* geometric mean over checked sizes */
    int worst;              /* point index of the largest violating slowdown, -1 */
    int nlib_checked, nopp; /* sizes with a tested library algorithm; with an opportunity */
    double lib_score;       /* geometric mean of best library algorithm / default, 1 where none */
} mg_coll_result;

typedef struct mg_analysis {
    mg_dataset *ds;
    mg_analyze_opts opts;
    int *launches; /* check launches (not tuned), indexes into ds->launches */
    int nlaunches;
    int ntuned;
    mg_coll_result *colls;
    int ncolls;
    double barrier; /* median of MPI_Barrier, NaN when not measured */
    int npattern_tests, nmono_tests;
    int nlib_tests;         /* library algorithms against the default (own family) */
    int nlib_checked, nopp; /* over (collective, size) combinations */
    int ncell_opp;          /* over (collective, size, library algorithm) */
    double lib_score;       /* default vs best library algorithm, over all checked */
    int nchecked, nviol_brave, nviol_cautious; /* over (collective, size) combinations */
    int ncell_viol_brave, ncell_viol_cautious; /* over (collective, size, mock-up) */
    int nmono_viol, nsplit_viol;
    double quality;
    /* validation of the tuned library (validate.c) */
    int nval_tests;              /* candidate entries tested: the family corrected together */
    int nkept, nrejected;        /* entries (sizes) kept and rejected */
    int nnoentry, nnoentry_slow; /* rows without an entry; of those, speed-up below 0.95 */
    double val_min_speedup;      /* a kept entry's slowest launch: 1 / (1 - min_gain / 2) or more */
    double val_gain_speedup;     /* its median over the launches: 1 / (1 - min_gain) or more */
    /* the machine (raw headers of any launch, #@oversubscribed=) */
    int oversub, oversub_ranks, oversub_cores, busy_poll;
    /* other processes shared the cores in some launch (#@busy=, the most switches per second
     * and the smallest share of a core of a rank over such launches) */
    int busy;
    double busy_switches, busy_share;
    char **missing; /* incomplete data, one line each */
    int nmissing, capmissing;
    char **disturbed; /* launches set aside at a size (disturbed.c), one line each */
    int ndisturbed, capdisturbed;
    char **syncnotes; /* observations flagged invalid by the sync, one line per cell */
    int nsyncnotes, capsyncnotes;
    size_t nsync_flagged, nsync_total; /* flagged rows and all rows of the check launches */
    char nodes[32], ppn[32], nprocs[32], library[256], date[64], datatype[64], operation[64];
} mg_analysis;

/* Runs every test and check on ds (sorted in place). Returns 0, or -1 (out of memory). */
int mg_analysis_run(mg_analysis *a, mg_dataset *ds, const mg_analyze_opts *o);
void mg_analysis_free(mg_analysis *a);

const char *mg_name(const mg_analysis *a, int idx);
/* A header of the raw file a collective's measurements come from, else of the first launch
 * having the key; "" when absent. */
const char *mg_coll_header(const mg_analysis *a, const mg_coll_result *c, const char *key);
/* "_<DATATYPE>_<OP>" ("_<DATATYPE>" for a collective that is not a reduction) when another
 * result has the same collective and size (measured with other types: c->several), else "":
 * the part of its file names that tells them apart. */
void mg_coll_type_suffix(const mg_analysis *a, const mg_coll_result *c, char *buf, size_t n);
/* The collectives that select by communicator size only (catalog mg_coll_sizeless): Barrier,
 * Gatherv, Scatterv, Alltoallv; their profiles have one range. */
int mg_is_sizeless(const char *name);
const char *mg_stat_label(int test); /* "t", "z", "U", "D" */

/* The steps of mg_analysis_run, one file each (group.c, significance.c, decide.c, missing.c). */
int mg_an_group(mg_analysis *a, int barrier_name);
int mg_an_fill_cell(mg_analysis *a, mg_cell *c);
/* A launch whose default median at a size is more than MG_DISTURBED times the reference (the
 * median over the check launches' medians) measured a disturbed machine, not the algorithms:
 * disturbed.c sets such check launches aside at that size (every cell's series there becomes
 * NULL) before the cells are summarised, and says so in a->disturbed. */
#define MG_DISTURBED 3.0
void mg_an_set_aside(mg_analysis *a);
/* Is a launch's default median at pt, dmed, disturbed against the check's (which needs three
 * check launches with the default there)? validate.c and the tuned medians. */
int mg_an_disturbed(const mg_point *pt, double dmed);
/* Is validation launch l set aside at pt as disturbed (its default's median disturbed against
 * the check's, and not every validation launch there so)? */
int mg_an_val_aside(const mg_analysis *a, const mg_coll_result *c, const mg_point *pt, int l);
/* Appends a line to a->disturbed (summary.txt, report). */
void mg_an_note_disturbed(mg_analysis *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Appends a formatted line to a list of notes (missing data, sync notes, disturbed launches). */
void mg_an_add_line(char ***list, int *n, int *cap, const char *fmt, va_list ap);
/* The per-launch tests of candidate x against reference y; p = the largest launch p-value. */
void mg_an_test_cells(const mg_analysis *a, const mg_cell *x, const mg_cell *y, int *tested,
                      int *faster, double *stat, double *p);
int mg_an_pattern_checks(mg_analysis *a);
void mg_an_decide(mg_analysis *a);
int mg_an_guideline_checks(mg_analysis *a);
void mg_an_tuned_results(mg_analysis *a);
/* The validation: per candidate entry the tests of tuned against default in every validation
 * launch; an entry is kept only when significant in every launch after the correction over all
 * entries, faster in every launch by the launch's speed-up (default / tuned paired by the
 * interleaving's rounds), at least min_gain / 2 faster in the slowest launch and min_gain over
 * the launches; otherwise pt->profile becomes -1 (validate.c). */
void mg_an_validate(mg_analysis *a);
/* One test of candidate x against reference y (both sorted): x faster? 0, or -1. */
int mg_an_test_series(int test, const mg_series *x, const mg_series *y, double *stat, double *p);
/* The cell of alg at q when it qualifies for a profile entry there (a violation or an
 * opportunity saving at least --min-gain; none at a size the validation rejected), else NULL
 * (decide.c). */
const mg_cell *mg_an_qualifying(const mg_analysis *a, const mg_point *q, int alg);
/* The one mock-up of a v-collective's profile: it qualifies at every checked size, the largest
 * geometric-mean slowdown among those; -1 when none (decide.c). */
int mg_an_v_choice(const mg_analysis *a, const mg_coll_result *c);
/* The validation verdict of a row of the tuned table, e.g. "kept" (tables.c). */
const char *mg_val_verdict(const mg_analysis *a, const mg_point *pt, char *buf, size_t n);
void mg_an_find_missing(mg_analysis *a, int have_barrier);
double mg_an_median_sorted(const double *v, size_t n); /* NaN for n = 0 */
/* The median of one launch's series s (sorted); NaN when s is NULL or empty. */
double mg_an_series_median(const mg_series *s);
double mg_an_median_of(double *v, int n); /* reorders v; NaN for n = 0 */

#endif
