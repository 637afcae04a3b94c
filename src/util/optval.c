/* Option values and their errors for every command-line parser (optval.h). */
#include "optval.h"
#include "diag.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mg_perr_fail(mg_perr *e, const char *opt, const char *fmt, ...) {
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (e->buf && e->len) snprintf(e->buf, e->len, "%s: %s", opt, what);
    return 2;
}

/* Integer with an optional binary suffix K, M, G (sizes only). */
int mg_opt_i64(mg_perr *e, const char *opt, const char *s, int64_t lo, int64_t hi, int suffix,
               int64_t *out) {
    if (!s || !*s) return mg_perr_fail(e, opt, "missing value");
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || isspace((unsigned char)*s))
        return mg_perr_fail(e, opt, "'%s' is not a number", s);
    int64_t mul = 1;
    if (suffix && *end && !end[1]) {
        switch (*end) {
        case 'k':
        case 'K':
            mul = 1LL << 10;
            end++;
            break;
        case 'm':
        case 'M':
            mul = 1LL << 20;
            end++;
            break;
        case 'g':
        case 'G':
            mul = 1LL << 30;
            end++;
            break;
        default:
            break;
        }
    }
    if (*end) return mg_perr_fail(e, opt, "'%s' is not a whole number", s);
    if (errno == ERANGE || (mul > 1 && (v > INT64_MAX / mul || v < INT64_MIN / mul)))
        return mg_perr_fail(e, opt, "'%s' is out of range", s);
    v *= mul;
    if (v < lo || v > hi)
        return mg_perr_fail(e, opt, "%lld is out of range [%lld, %lld]", v, (long long)lo,
                            (long long)hi);
    *out = (int64_t)v;
    return 0;
}

int mg_opt_double(mg_perr *e, const char *opt, const char *s, double lo, double hi, double *out) {
    if (!s || !*s) return mg_perr_fail(e, opt, "missing value");
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || isspace((unsigned char)*s))
        return mg_perr_fail(e, opt, "'%s' is not a number", s);
    if (errno == ERANGE || !isfinite(v) || v < lo || v > hi)
        return mg_perr_fail(e, opt, "'%s' is out of range [%g, %g]", s, lo, hi);
    *out = v;
    return 0;
}

/* Calls `item` for every comma-separated item of s (empty items are errors). */
int mg_opt_each(mg_perr *e, const char *opt, const char *s,
                int (*item)(mg_perr *, const char *, const char *, void *), void *ctx) {
    if (!s || !*s) return mg_perr_fail(e, opt, "missing value");
    const char *p = s;
    for (;;) {
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        char buf[256];
        if (n == 0) return mg_perr_fail(e, opt, "empty item in '%s'", s);
        if (n >= sizeof buf) return mg_perr_fail(e, opt, "item too long in '%s'", s);
        memcpy(buf, p, n);
        buf[n] = 0;
        int rc = item(e, opt, buf, ctx);
        if (rc) return rc;
        if (!c) return 0;
        p = c + 1;
    }
}

const char *mg_opt_value(int argc, char **argv, int *i, const char *name) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n)) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] || *i + 1 >= argc) return NULL;
    return argv[++*i];
}

int mg_opt_is(const char *arg, const char *name) {
    size_t n = strlen(name);
    return !strncmp(arg, name, n) && (arg[n] == 0 || arg[n] == '=');
}

int mg_opt_i64_say(const char *opt, const char *s, int64_t lo, int64_t hi, int64_t *out) {
    char buf[600];
    mg_perr e = {buf, sizeof buf};
    if (!mg_opt_i64(&e, opt, s, lo, hi, 0, out)) return 0;
    mg_error(NULL, "%s", buf);
    return 2;
}

int mg_opt_double_say(const char *opt, const char *s, double lo, double hi, double *out) {
    char buf[600];
    mg_perr e = {buf, sizeof buf};
    if (!mg_opt_double(&e, opt, s, lo, hi, out)) return 0;
    mg_error(NULL, "%s", buf);
    return 2;
}
