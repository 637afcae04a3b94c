/* Option errors of the command-line parsers (bench, nrep): one message "OPTION: problem" into
 * the caller's buffer, and the usage-error exit code. Pure. */
#ifndef MG_OPT_ERROR_H
#define MG_OPT_ERROR_H

#include <stddef.h>

typedef struct mg_perr {
    char *buf;
    size_t len;
} mg_perr;

/* Writes "opt: <formatted problem>" into e (when it has room) and returns 2. */
int mg_perr_fail(mg_perr *e, const char *opt, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
