/* Option values of every command-line parser (bench, nrep, and the subcommands' own options):
 * `--name=V` or `--name V`, numbers and lists; errors as one message "OPTION: problem", in the
 * caller's buffer (parsers run on every rank and report once) or printed at once (the `_say`
 * forms), with the usage-error exit code 2. Pure. */
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

/* The value of option `name` at argv[*i]: `name=V`, or `name V` (then *i moves to V); NULL when
 * argv[*i] is another option or the value is missing. */
const char *mg_opt_value(int argc, char **argv, int *i, const char *name);
/* 1 when arg is option `name`, alone or as `name=...`. */
int mg_opt_is(const char *arg, const char *name);
/* mg_opt_i64 (no suffix) and mg_opt_double that print `mpiguide: error: OPTION: problem`. */
int mg_opt_i64_say(const char *opt, const char *s, int64_t lo, int64_t hi, int64_t *out);
int mg_opt_double_say(const char *opt, const char *s, double lo, double hi, double *out);

#endif
