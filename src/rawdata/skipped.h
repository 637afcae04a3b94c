/* Measurements the benchmark skipped for lack of memory (docs/dev/interfaces.md sections 3 and
 * 5): the `#@skipped=COLL ALG MSIZE WHY` line that marks each in the raw data, and the one line
 * that ends a run which left some out, counted per collective and raw file. Pure: no MPI. */
#ifndef MG_RAW_SKIPPED_H
#define MG_RAW_SKIPPED_H

#include <stddef.h>

/* The exit code of bench, check and tune when measurements were skipped for lack of memory
 * (everything measured is written; errors 1, 2 and 4 take precedence, this one over 3). */
#define MG_EXIT_INCOMPLETE 5

/* One skipped measurement, as its `#@skipped=` line gives it. */
typedef struct mg_skipped {
    char coll[64], alg[128], why[200];
    long long msize;
} mg_skipped;

/* The `#@skipped=...` line of s, with its newline, into buf. */
void mg_skipped_text(const mg_skipped *s, char *buf, size_t len);
/* A `#@skipped=` value (len bytes, without the key) into s: 0, or -1 when malformed. */
int mg_skipped_parse(const char *v, size_t len, mg_skipped *s);

#define MG_SKIPS_PLACES 32 /* distinct (collective, file) kept; more are counted */

/* Skipped measurements per (collective, raw file): how many, the smallest and largest size. */
typedef struct mg_skips {
    struct {
        char coll[64], file[256];
        long long lo, hi;
        long n;
    } e[MG_SKIPS_PLACES];
    int n;
    long long total; /* measurements, those beyond MG_SKIPS_PLACES places too */
} mg_skips;

/* One measurement of coll at msize skipped, its marker in file ("standard output" when the raw
 * data went there). */
void mg_skips_note(mg_skips *t, const char *coll, long long msize, const char *file);
/* The one line (no newline) into buf: "mpiguide: incomplete: N measurements skipped for lack of
 * memory: COLL LO-HI B (K, in FILE), ...; ...". Returns 0 (empty buf) when none was skipped. */
int mg_skips_line(const mg_skips *t, char *buf, size_t len);

#endif
