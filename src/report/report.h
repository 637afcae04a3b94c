/* The renderers of an analysis and the entry points that read raw data, analyse and write
 * every output (tables, summary.txt, profiles/, report.html, the verdict), and `compare`.
 * MPI-free; above the analysis (analyze/model.h), which never calls them. */
#ifndef MG_REPORT_H
#define MG_REPORT_H

#include "analyze/model.h"
#include <stdio.h>

/* The verdict (verdict.c): three short lines for the top of the report and the end of tune. */
typedef struct mg_verdict {
    char violations[256]; /* violations found, quality score */
    char entries[512];    /* profile entries kept / rejected, validated speed-ups */
    char machine[400];    /* "timings are not trustworthy: ..." or empty */
    char drift[256];      /* "timings drift between launches: ..." or empty */
} mg_verdict;
/* The verdict says timings drift when the default's per-launch medians at a size differ by at
 * least this factor, as the median over the sizes (docs/check.md "Drift between launches"). */
#define MG_DRIFT 1.25
/* Drift between the check launches: per checked size with the default in at least two
 * launches (launches set aside as disturbed left out), the default's largest per-launch median
 * over its smallest; *median and *max over those sizes. Returns their number (0: NaN). */
int mg_an_drift(const mg_analysis *a, double *median, double *max);
/* "the default's median moved by Xx between check launches (median over N sizes, up to Yx)"
 * into buf, for the summary and the verdict; returns the median drift, NaN (buf empty) when no
 * size has the default in two launches. */
double mg_drift_text(const mg_analysis *a, char *buf, size_t n);
void mg_verdict_of(const mg_analysis *a, mg_verdict *v);
/* Whether the timings are not trustworthy (oversubscribed or busy), and why (the text of the
 * summary's machine line and the verdict). */
int mg_untrusted(const mg_analysis *a);
const char *mg_oversub_text(const mg_analysis *a, char *buf, size_t n);
/* The verdict on f, with where the report is when outdir is not NULL. */
void mg_print_verdict(const mg_analysis *a, const char *outdir, FILE *f);

/* Profile agreement of two outputs (agreement.c): entries (collective, p, msize) -> mock-up. */
typedef struct mg_pentry {
    int coll, p;
    long long msize;
    int alg; /* algorithm id (catalog) */
} mg_pentry;
typedef struct mg_agreement {
    int same, different, only_a, only_b;
    double jaccard; /* same / all entries of either; 1 when neither has any */
} mg_agreement;
typedef struct mg_pdiff { /* an entry the two sides disagree on */
    mg_pentry at;         /* its collective, p, msize */
    int alg_a, alg_b;     /* what each side selects there; -1: the default (no entry) */
} mg_pdiff;
/* Sorts both lists and counts; with diff (room for na + nb) also lists the disagreements. */
void mg_agreement_of(mg_pentry *a, int na, mg_pentry *b, int nb, mg_agreement *r, mg_pdiff *diff,
                     int *ndiff);
/* The entries of the profiles in profdir at the sizes a or other measured (either may be NULL)
 * and at the sizes of extra (its coll, p and msize; online decisions), *out malloc'd, caller
 * frees. 0, or -1 when the profiles cannot be read (a message said why). */
int mg_entries_of(const char *profdir, const mg_analysis *a, const mg_analysis *other,
                  const mg_pentry *extra, int nextra, mg_pentry **out, int *n);
/* 1 when dir holds profiles and no raw data (what MPIGUIDE_PROFILES_OUT writes): compare takes
 * it as a side of profiles alone. */
int mg_profiles_only(const char *dir);
/* The (collective, p, size) of every `#@online=` line of the profiles in profdir, appended to
 * *v (*n entries, malloc'd); 0, or -1 when out of memory. */
int mg_online_sizes(const char *profdir, mg_pentry **v, int *n);
/* Why a side of profiles alone selects what it does at e: its `#@online=` record there. */
void mg_online_why(const char *profdir, const mg_pentry *e, char *buf, size_t len);

/* Writers (return 0, or -1 with a message on stderr naming the file). */
int mg_write_tables(const mg_analysis *a, const char *outdir);
int mg_write_summary(const mg_analysis *a, const char *outdir, FILE *also);
int mg_write_profiles(const mg_analysis *a, const char *outdir);
int mg_write_report(const mg_analysis *a, const char *outdir);
/* Prints the tuned validation table (tables/tuned.txt) to f. */
void mg_print_tuned(const mg_analysis *a, FILE *f);
/* Prints comparer c's table of one collective (aligned, units) to f. */
void mg_print_comparer(const mg_analysis *a, int comparer, const mg_coll_result *c, FILE *f);
/* The profile text of one collective into buf (NULL when it has no entries); caller frees.
 * recorded (sorted, nrec of them; NULL for none): the sizes an application's record lists for
 * this collective and communicator size (OUTDIR/record.txt), which the range rule keeps out of
 * ranges that select an alternative unless they were measured. */
char *mg_profile_text(const mg_analysis *a, const mg_coll_result *c, const long long *recorded,
                      int nrec);

/* One range of a profile being written: [lo, hi] selects win (-1: the default); first and last
 * the measured points inside; cut_below/cut_above a recorded size it stops short of (-1: none). */
typedef struct mg_wrange {
    long long lo, hi;
    int win;
    int first, last;
    long long cut_below, cut_above;
} mg_wrange;
/* The range rule (docs/check.md "Profiles"): a size an application's record lists and the check
 * did not measure is never inside a range that selects an alternative to the default. Such a
 * range is cut around it (the parts stop short on both sides; the size runs the default,
 * uncovered); `default` ranges are left whole. r: n ranges sorted by lo, room for 2 n + nrec;
 * recorded and measured sorted ascending. Returns the number of ranges. */
int mg_ranges_cut(mg_wrange *r, int n, const long long *recorded, int nrec,
                  const long long *measured, int nmeas);
/* The last size of a's side when a range ends between measured sizes a < b: the midpoint on a
 * log scale, floor(sqrt(a b)), within [a, b - 1]. */
long long mg_log_midpoint(long long a, long long b);

/* Reads the raw data of dirs (OUTDIRs, launch directories or .dat files; all merged), analyses
 * it and writes tables/, summary.txt, profiles/ and report.html into o->outdir (default
 * dirs[0]). Returns the exit code of docs/dev/interfaces.md section 3: 0, 1 (no data, unwritable),
 * 3 (o->exit_code and pattern violations found). */
int mg_analyze_dirs(const mg_analyze_opts *o, char **dirs, int n);

/* An analysis held in memory with its data, for tune, which decides from the analysis of the
 * validation whether to run launches again and otherwise writes that same analysis. Lives in
 * the caller's storage (the analysis points into the data): load, use, free. */
typedef struct mg_analyzed {
    mg_dataset ds;
    mg_analysis a;
} mg_analyzed;
/* Reads dirs and analyses with o; 0, or 1 after a message (x is freed then). */
int mg_analyzed_load(mg_analyzed *x, const mg_analyze_opts *o, char **dirs, int n);
/* The collectives (names, malloc'd, in *names) that have a candidate profile entry with fewer
 * than `wanted` validation launches to judge it by because some were set aside as disturbed
 * (docs/check.md), so that tune can run them once more. 0, or 1 after a message. */
int mg_analyzed_disturbed(const mg_analyzed *x, int wanted, char ***names, int *n);
/* Writes every output of x into outdir and prints to o->out and o->verdict as
 * mg_analyze_dirs does; its exit code. */
int mg_analyzed_write(const mg_analyzed *x, const mg_analyze_opts *o, const char *outdir);
void mg_analyzed_free(mg_analyzed *x);

/* `mpiguide compare`: both directories analysed with o, printed side by side on o->out. */
int mg_compare_dirs(const mg_analyze_opts *o, const char *dir_a, const char *dir_b);

#endif
