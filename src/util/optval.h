/* Option values of the command-line parsers (bench, nrep): numbers and lists, and errors as one
 * message "OPTION: problem" in the caller's buffer with the usage-error exit code. Pure. */
#ifndef MG_OPT_PARSE_H
#define MG_OPT_PARSE_H

#include <stddef.h>
#include <stdint.h>

typedef struct mg_perr {
    char *buf;
    size_t len;
} mg_perr;

/* Writes "opt: <formatted problem>" into e (when it has room) and returns 2. */
int mg_perr_fail(mg_perr *e, const char *opt, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Each returns 0 with the value, or writes "OPTION: problem" into e and returns 2. */
/* A whole number in [lo, hi]; with suffix, K, M or G multiply by 2^10, 2^20, 2^30. */
int mg_opt_i64(mg_perr *e, const char *opt, const char *s, int64_t lo, int64_t hi, int suffix,
               int64_t *out);
/* A finite number in [lo, hi]. */
int mg_opt_double(mg_perr *e, const char *opt, const char *s, double lo, double hi, double *out);
/* Calls `item` for every comma-separated item of s (an empty item is an error). */
int mg_opt_each(mg_perr *e, const char *opt, const char *s,
                int (*item)(mg_perr *, const char *, const char *, void *), void *ctx);

#endif
