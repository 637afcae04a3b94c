/* Candidates that declined the measured arguments (the default ran instead, so nothing was
 * measured for them there): tallied over one launch, said in one line at its end (which, why,
 * at how many sizes); each size goes into the raw data as a `#@declined=` line, which the
 * analysis lists in summary.txt (docs/benchmark.md "Declined candidates"). Pure: no MPI. */
#ifndef MG_BENCH_DECLINES_H
#define MG_BENCH_DECLINES_H

#include <stddef.h>

#define MG_DECLINES_MAX 64 /* distinct (collective, candidate, reason) kept; more are counted */

typedef struct mg_declines {
    struct {
        char coll[40], alg[80], why[120];
        int nsizes;
    } e[MG_DECLINES_MAX];
    int n;
    int more; /* sizes of candidates beyond MG_DECLINES_MAX */
} mg_declines;

/* The launch's tally (one per process; the bench runs of one launch add to it). */
mg_declines *mg_declines_launch(void);
/* One size at which candidate alg of collective coll declined, for the reason why. */
void mg_declines_note(mg_declines *d, const char *coll, const char *alg, const char *why);
/* The one line (no newline) into buf: "mpiguide: N candidate(s) declined the measured arguments
 * at M size(s) (...): ALG (COLL, K sizes: WHY), ...; per size: ..." (at most 4 named).
 * Returns 0 (empty buf) when nothing declined. */
int mg_declines_line(const mg_declines *d, char *buf, size_t len);
/* The launch's line on stderr when say (rank 0; --quiet too: it is one line); then empties the
 * tally. */
void mg_declines_say(int say);
/* Empties the tally. */
void mg_declines_clear(mg_declines *d);

#endif
