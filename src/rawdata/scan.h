/* Reading raw benchmark files (docs/dev/interfaces.md section 5) for `bench --resume`: the header
 * keys, the complete measurements, and where an interrupted run's file stops being whole. Pure. */
#ifndef MG_BENCH_RAW_H
#define MG_BENCH_RAW_H

#include <stddef.h>
#include <stdint.h>

typedef struct mg_raw_meas {
    char test[64];
    char alg[128];
    int64_t msize;
    int64_t rows;
    int p; /* the #@comm_size section it is in, 0 outside any */
} mg_raw_meas;

typedef struct mg_raw_scan {
    int nkeys;
    char **keys, **vals; /* #@key=value lines */
    int nmeas;
    mg_raw_meas *meas; /* complete measurements in file order */
    size_t keep;       /* length of the prefix holding the header and complete measurements */
    int64_t dropped;   /* rows of an unfinished trailing measurement (not counted above) */
} mg_raw_scan;

/* Scans a raw file's text. A measurement is a run of rows with the same (test, alg, msize,
 * #@comm_size section) and observation indices 0, 1, 2, ...; the writer appends each measurement
 * with one write, so only a last line without its newline marks an unfinished one (dropped, keep
 * excludes it). 0, or 2 with "FILE:LINE: problem" in err. */
int mg_raw_scan_text(const char *text, size_t len, const char *fname, mg_raw_scan *s, char *err,
                     size_t errlen);
const char *mg_raw_get(const mg_raw_scan *s, const char *key); /* NULL when absent */
int mg_raw_done(const mg_raw_scan *s, const char *test, const char *alg, int64_t msize, int p);
void mg_raw_scan_free(mg_raw_scan *s);

#endif
