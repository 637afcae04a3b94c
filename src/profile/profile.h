/* Performance profiles (docs/dev/interfaces.md section 8, the format of the tuning-library paper):
 * parsing one profile and loading a file or directory of them. Pure: no MPI, so the
 * library, `mpiguide profile check`, the unit tests and the fuzzer share this code. */
#ifndef MG_PROFILE_H
#define MG_PROFILE_H

#include "util/diag.h"
#include <stddef.h>
#include <stdint.h>

#define MG_PROFILE_MAX_ALGS   4096       /* mock-ups listed in one profile */
#define MG_PROFILE_MAX_RANGES 1000000    /* ranges in one profile */
#define MG_PROFILE_MAX_BYTES  (64 << 20) /* size of one profile file */
#define MG_PROFILE_MAX_LINE   4096       /* characters in one line */

typedef struct mg_prange {
    int64_t lo, hi; /* message sizes in bytes, inclusive */
    int alg;        /* algorithm id (catalog/catalog.h) */
    int line;
} mg_prange;

/* A `#@validated=MSIZE ALG speedup=S min_speedup=M launches=N p=P` line: `tune` measured the
 * tuned library against the default at MSIZE in N validation launches and kept the entry
 * (docs/dev/interfaces.md section 8). */
typedef struct mg_pvalid {
    int64_t msize;
    char alg[64];       /* as written; must be what the ranges select at msize */
    double speedup;     /* median over the launches of default / tuned */
    double min_speedup; /* the smallest launch's */
    int launches;
    double p; /* adjusted p-value of "tuned faster" */
    int line;
} mg_pvalid;

/* A `#@online=MSIZE ALG calls=N explored=E cost_s=C candidates=K [speedup=S ci95=LO..HI]` line:
 * online mode (MPIGUIDE_ONLINE) raced K candidates in the application's calls of the size bucket
 * holding MSIZE (the size it saw most), N calls, E of them timed, C seconds exploring cost
 * against the default (negative when the candidates' gains outweighed), and
 * decided for ALG: a winner with its speed-up and 95 % interval, or `default` (no speed-up)
 * (docs/dev/interfaces.md section 8). */
typedef struct mg_ponline {
    int64_t msize;
    char alg[64]; /* as written; must be what the ranges select at msize */
    uint64_t calls, explored;
    double cost_s;
    int candidates;
    double speedup, ci_lo, ci_hi; /* NaN for `default` */
    int line;
} mg_ponline;

typedef struct mg_profile {
    int coll;    /* collective id */
    int p;       /* communicator size the profile is for */
    int line;    /* line of the collective name */
    int nranges; /* ranges, sorted by lo and disjoint */
    mg_prange *ranges;
    /* Provenance `#@key=value` lines written by mpiguide; empty or 0 when absent. */
    char mpi_library[256], datatype[64], operation[64], date[64];
    char timing[32], roots[64]; /* the benchmark's timing mode and root sequence */
    int nodes, ppn;
    int nvalid; /* `#@validated=` lines, in file order */
    mg_pvalid *valid;
    int nmeasured; /* `#@measured=`: the sizes the check measured, ascending (0: not said) */
    int64_t *measured;
    int nonline; /* `#@online=` lines, in file order */
    mg_ponline *online;
} mg_profile;

/* A parse problem: the line (1-based; the last line for truncation) and what is wrong. */
typedef struct mg_perr {
    int line;
    char what[320];
} mg_perr;

/* Parses one profile from len bytes of text (need not be NUL-terminated). Returns 0, or -1
 * with *err filled and *out left empty. */
int mg_profile_parse(const char *text, size_t len, mg_profile *out, mg_perr *err);
void mg_profile_free(mg_profile *p);
/* The algorithm the profile selects for msize by a linear scan (a reference for tests and
 * the CLI); -1 when no range holds msize. */
int mg_profile_select_linear(const mg_profile *p, int64_t msize);

/* ---- writing (the inverse of mg_profile_parse) ---- */

typedef struct mg_profile_kv {
    const char *key, *val; /* a `#@key=value` provenance line; skipped when val is empty */
} mg_profile_kv;

typedef struct mg_profile_wrange {
    int64_t lo, hi;  /* message sizes, inclusive, ascending and disjoint */
    const char *alg; /* algorithm name */
} mg_profile_wrange;

/* The text of one profile: a first comment line, the provenance lines, `comment` (lines that
 * already start with `#`, may be NULL), then collective, p, the algorithms numbered in order of
 * first use, and the ranges. NULL when out of memory; caller frees. */
char *mg_profile_render(const char *coll, int p, const mg_profile_kv *prov, int nprov,
                        const char *comment, const mg_profile_wrange *r, int nr);

/* One size bucket online mode decided, for mg_profile_learned. */
typedef struct mg_learned {
    int64_t lo, hi;  /* the bucket (for v-collectives 0 .. INT64_MAX) */
    int64_t msize;   /* the size its calls had most */
    const char *alg; /* the winner's name, or "default" */
    uint64_t calls, explored;
    double cost_s;
    int candidates;
    double speedup, ci_lo, ci_hi; /* the winner's (not written for the default) */
} mg_learned;

/* The text of the profile online mode learned for (coll, p): the ranges `kept` (those of the
 * profile the run started from: ascending, disjoint), and each learned bucket less the kept
 * ranges, with one `#@online=` line per learned bucket whose msize such a range holds; prov as
 * for mg_profile_render. NULL when out of memory. */
char *mg_profile_learned(const char *coll, int p, const mg_profile_kv *prov, int nprov,
                         const mg_profile_wrange *kept, int nkept, const mg_learned *l, int nl);

typedef struct mg_profile_set {
    int n, cap;
    mg_profile *v;
    char **file; /* file of v[i] */
} mg_profile_set;

/* Loads every profile of a directory (regular files not starting with `.`, in name order) or
 * one file. A file with a problem is reported through diag and left out, as is a second
 * profile for the same (collective, communicator size). Returns the number of errors. */
int mg_profiles_load(const char *path, mg_profile_set *set, mg_diag_fn diag, void *ctx);
void mg_profile_set_free(mg_profile_set *set);

#endif
