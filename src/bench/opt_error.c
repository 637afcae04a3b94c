/* Option errors shared by the bench and nrep option parsers. */
#include "opt_error.h"
#include <stdarg.h>
#include <stdio.h>

int mg_perr_fail(mg_perr *e, const char *opt, const char *fmt, ...) {
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (e->buf && e->len) snprintf(e->buf, e->len, "%s: %s", opt, what);
    return 2;
}
