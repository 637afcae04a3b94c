/* The one reader of record files: strict, line by line, every problem one `FILE:LINE: what`.
 * A file is a record only when its first `#@` line is `#@record_version=`; it is complete only
 * when its last line is `#@end=ROWS` with the number of rows read, so a truncated or foreign
 * file is an error, never a partial result. Nothing is trusted (the fuzzer feeds it garbage). */
#include "record.h"
#include "catalog/catalog.h"
#include "util/file.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rparser {
    const char *fname;
    char *err;
    size_t errlen;
    int line;
} rparser;

static int fail(rparser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(rparser *ps, const char *fmt, ...) {
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (ps->err && ps->errlen)
        snprintf(ps->err, ps->errlen, "%s:%d: %s", ps->fname, ps->line, what);
    return 2;
}

/* A whole non-negative decimal number (no sign, no spaces) up to max. */
static int u64(const char *s, uint64_t max, uint64_t *v) {
    uint64_t x = 0;
    if (!*s) return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        unsigned d = (unsigned)(*s - '0');
        if (x > (max - d) / 10) return -1;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

static int i64(const char *s, int64_t max, int64_t *v) {
    uint64_t x;
    if (u64(s, (uint64_t)max, &x)) return -1;
    *v = (int64_t)x;
    return 0;
}

static int int32(const char *s, int *v) {
    int64_t x;
    if (i64(s, 2147483647, &x)) return -1;
    *v = (int)x;
    return 0;
}

/* A finite non-negative number of seconds. */
static int secs(const char *s, double *v) {
    if (!*s || isspace((unsigned char)*s)) return -1;
    char *e;
    errno = 0;
    *v = strtod(s, &e);
    return *e || errno == ERANGE || !(*v >= 0) || !isfinite(*v) ? -1 : 0;
}

/* Names written by the library: letters, digits and `_`. */
static int name_ok(const char *s, size_t cap) {
    size_t n = strlen(s);
    if (!n || n >= cap) return 0;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_') return 0;
    return 1;
}

/* Splits s at the separator into at most n fields (s is modified); returns the count. */
static int split(char *s, char sep, char **f, int n) {
    int k = 0;
    f[k++] = s;
    for (char *q = s; *q; q++)
        if (*q == sep) {
            if (k == n) return n + 1;
            *q = 0;
            f[k++] = q + 1;
        }
    return k;
}

static int is_bucket(int64_t lo, int64_t hi) {
    int64_t l, h;
    mg_rec_bucket(lo, &l, &h);
    return l == lo && h == hi;
}

static int parse_sizes(rparser *ps, char *v, mg_rec_row *w) {
    if (!strcmp(v, "-")) return 0;
    char *items[MG_REC_SIZES + 1];
    int n = split(v, ',', items, MG_REC_SIZES);
    if (n > MG_REC_SIZES) return fail(ps, "sizes: more than %d sizes", MG_REC_SIZES);
    for (int i = 0; i < n; i++) {
        char *f[6];
        mg_rec_size *z = &w->sizes[i];
        if (split(items[i], ':', f, 5) != 5 || i64(f[0], INT64_MAX, &z->msize) ||
            u64(f[1], UINT64_MAX, &z->calls) || secs(f[2], &z->time_s) ||
            u64(f[3], UINT64_MAX, &z->covered) || secs(f[4], &z->covered_s))
            return fail(ps, "sizes: item %d is not SIZE:CALLS:TIME_S:COVERED:COVERED_S", i + 1);
        if (z->covered > z->calls || !z->calls)
            return fail(ps, "sizes: item %d has %llu calls and %llu covered", i + 1,
                        (unsigned long long)z->calls, (unsigned long long)z->covered);
        for (int k = 0; k < i; k++)
            if (w->sizes[k].msize == z->msize)
                return fail(ps, "sizes: %lld listed twice", (long long)z->msize);
    }
    w->nsizes = n;
    return 0;
}

/* TYPE:CALLS items, each problem type (model/problems.h) at most once, calls >= 1. */
static int parse_spread(rparser *ps, char *v, mg_rec_row *w) {
    w->vrow = 1;
    if (!strcmp(v, "-")) return 0;
    char *items[MG_PROBLEM_COUNT + 1];
    int n = split(v, ',', items, MG_PROBLEM_COUNT);
    if (n > MG_PROBLEM_COUNT) return fail(ps, "spread: more than %d items", MG_PROBLEM_COUNT);
    for (int i = 0; i < n; i++) {
        char *f[3];
        uint64_t calls;
        int t;
        if (split(items[i], ':', f, 2) != 2 || (t = mg_problem_parse(f[0])) < 0 ||
            strcmp(f[0], mg_problem_name(t)) || u64(f[1], UINT64_MAX, &calls) || !calls)
            return fail(ps, "spread: item %d is not TYPE:CALLS (TYPE a problem type)", i + 1);
        if (w->spread[t]) return fail(ps, "spread: %s listed twice", f[0]);
        w->spread[t] = calls;
    }
    return 0;
}

static int parse_roots(rparser *ps, char *v, mg_rec_row *w) {
    w->rooted = 1;
    if (!strcmp(v, "-")) return 0;
    char *items[MG_REC_ROOTS + 1];
    int n = split(v, ',', items, MG_REC_ROOTS);
    if (n > MG_REC_ROOTS) return fail(ps, "roots: more than %d roots", MG_REC_ROOTS);
    for (int i = 0; i < n; i++) {
        char *f[3];
        mg_rec_root *r = &w->roots[i];
        if (split(items[i], ':', f, 2) != 2 || int32(f[0], &r->root) ||
            u64(f[1], UINT64_MAX, &r->calls) || !r->calls)
            return fail(ps, "roots: item %d is not ROOT:CALLS", i + 1);
        for (int k = 0; k < i; k++)
            if (w->roots[k].root == r->root) return fail(ps, "roots: %d listed twice", r->root);
    }
    w->nroots = n;
    return 0;
}

/* The keys of a row, in the order the writer writes them; those up to sizes_other are required,
 * block and spread exactly for v-collectives, the three root keys exactly for rooted
 * collectives, completed exactly for nonblocking ones. */
enum rkey {
    K_P,
    K_NODES,
    K_PPN,
    K_DATATYPE,
    K_ESIZE,
    K_OP,
    K_BYTES,
    K_CALLS,
    K_TIME,
    K_MEDIAN,
    K_COVERED,
    K_COVERED_S,
    K_MOCKUP,
    K_OTHER_TYPE,
    K_B2B,
    K_SIZES,
    K_SIZES_OTHER,
    K_BLOCK,
    K_SPREAD,
    K_ROOTS,
    K_ROOTS_OTHER,
    K_ROTATIONS,
    K_COMPLETED,
    K_COUNT
};
static const char *const rkey_names[K_COUNT] = {
    "p",      "nodes",      "ppn",         "datatype",  "esize",       "op",
    "bytes",  "calls",      "time_s",      "median_s",  "covered",     "covered_s",
    "mockup", "other_type", "b2b",         "sizes",     "sizes_other", "block",
    "spread", "roots",      "roots_other", "rotations", "completed"};

static int row_value(rparser *ps, enum rkey k, char *v, mg_rec_row *w) {
    int bad = 0;
    switch (k) {
    case K_P:
        bad = int32(v, &w->p) || w->p < 1;
        break;
    case K_NODES:
        bad = int32(v, &w->nodes);
        break;
    case K_PPN:
        bad = int32(v, &w->ppn);
        break;
    case K_DATATYPE:
        bad = strcmp(v, "-") && !name_ok(v, sizeof w->datatype);
        if (!bad) snprintf(w->datatype, sizeof w->datatype, "%s", v);
        break;
    case K_ESIZE:
        bad = int32(v, &w->esize);
        break;
    case K_OP:
        bad = strcmp(v, "-") && mg_op_class(v) == MG_OPC_NONE;
        if (!bad) snprintf(w->op, sizeof w->op, "%s", v);
        break;
    case K_BYTES: {
        char *f[3];
        bad = split(v, '-', f, 2) != 2 || i64(f[0], INT64_MAX, &w->lo) ||
              i64(f[1], INT64_MAX, &w->hi) || !is_bucket(w->lo, w->hi);
        if (bad) return fail(ps, "bytes: expected a bucket 0-0 or 2^k-(2^(k+1)-1)");
        break;
    }
    case K_CALLS:
        bad = u64(v, UINT64_MAX, &w->calls) || !w->calls;
        break;
    case K_TIME:
        bad = secs(v, &w->time_s);
        break;
    case K_MEDIAN:
        bad = secs(v, &w->median_s);
        break;
    case K_COVERED:
        bad = u64(v, UINT64_MAX, &w->covered);
        break;
    case K_COVERED_S:
        bad = secs(v, &w->covered_s);
        break;
    case K_MOCKUP:
        bad = u64(v, UINT64_MAX, &w->mockup);
        break;
    case K_OTHER_TYPE:
        bad = u64(v, UINT64_MAX, &w->other_type);
        break;
    case K_B2B:
        bad = u64(v, UINT64_MAX, &w->b2b);
        break;
    case K_SIZES:
        return parse_sizes(ps, v, w);
    case K_SIZES_OTHER:
        bad = u64(v, UINT64_MAX, &w->sizes_other);
        break;
    case K_BLOCK:
        bad = i64(v, INT64_MAX, &w->block);
        break;
    case K_SPREAD:
        return parse_spread(ps, v, w);
    case K_ROOTS:
        return parse_roots(ps, v, w);
    case K_ROOTS_OTHER:
        bad = u64(v, UINT64_MAX, &w->roots_other);
        break;
    case K_ROTATIONS:
        bad = u64(v, UINT64_MAX, &w->rotations);
        break;
    case K_COMPLETED:
        w->nb = 1;
        bad = u64(v, UINT64_MAX, &w->completed);
        break;
    case K_COUNT:
        break;
    }
    return bad ? fail(ps, "%s: bad value `%.40s`", rkey_names[k], v) : 0;
}

/* Relations between the fields of a row: parts never exceed their whole (each number is the
 * largest over ranks, so parts need not add up), names agree with the collective. */
static int row_check(rparser *ps, const mg_rec_row *w) {
    int red = mg_coll_is_reduction(w->coll), none = mg_coll_blocking(w->coll) == MG_CAT_BARRIER;
    int sizeless = mg_coll_sizeless(w->coll);
    if (red != (strcmp(w->op, "-") != 0))
        return fail(ps, "op: %s for %s", red ? "`-`" : "an op", mg_coll_name(w->coll));
    if (none != !strcmp(w->datatype, "-") || (none && w->esize))
        return fail(ps, "datatype: %s takes %s", mg_coll_name(w->coll),
                    none ? "`-` and esize=0" : "a datatype name");
    if (sizeless && (w->lo || w->hi))
        return fail(ps, "bytes: %s is recorded under 0-0", mg_coll_name(w->coll));
    if (w->covered > w->calls || w->mockup > w->covered || w->other_type > w->calls ||
        w->b2b > w->calls || w->sizes_other > w->calls ||
        w->covered_s > w->time_s * 1.000001 + 1e-12)
        return fail(ps, "covered, mockup, other_type, b2b and sizes_other must not exceed calls "
                        "(nor covered_s time_s)");
    for (int i = 0; i < w->nsizes; i++) /* a sizeless row lists totals, not selection sizes */
        if ((!sizeless && (w->sizes[i].msize < w->lo || w->sizes[i].msize > w->hi)) ||
            w->sizes[i].calls > w->calls)
            return fail(ps, "sizes: %lld is not a size of this row (bytes=%lld-%lld, calls=%llu)",
                        (long long)w->sizes[i].msize, (long long)w->lo, (long long)w->hi,
                        (unsigned long long)w->calls);
    if (w->rooted != mg_coll_is_rooted(w->coll))
        return fail(ps, "roots: %s for %s", w->rooted ? "given" : "missing", mg_coll_name(w->coll));
    for (int i = 0; i < w->nroots; i++)
        if (w->roots[i].root >= w->p || w->roots[i].calls > w->calls)
            return fail(ps, "roots: %d is not a rank of %d processes (or has too many calls)",
                        w->roots[i].root, w->p);
    if (w->rooted && (w->roots_other > w->calls || w->rotations > w->calls))
        return fail(ps, "roots_other and rotations must not exceed calls");
    if (w->vrow != mg_coll_is_v(w->coll))
        return fail(ps, "block, spread: %s for %s", w->vrow ? "given" : "missing",
                    mg_coll_name(w->coll));
    for (int t = 0; t < MG_PROBLEM_COUNT; t++)
        if (w->spread[t] > w->calls) return fail(ps, "spread: more calls than the row's");
    if (w->nb != mg_coll_is_nb(w->coll))
        return fail(ps, "completed: %s for %s", w->nb ? "given" : "missing", mg_coll_name(w->coll));
    if (w->completed > w->calls) return fail(ps, "completed must not exceed calls");
    return 0;
}

static int same_key(const mg_rec_row *a, const mg_rec_row *b) {
    return a->coll == b->coll && a->p == b->p && a->nodes == b->nodes && a->ppn == b->ppn &&
           a->esize == b->esize && a->lo == b->lo && !strcmp(a->datatype, b->datatype) &&
           !strcmp(a->op, b->op);
}

static int parse_row(rparser *ps, char *s, mg_record *r) {
    char *tok[K_COUNT + 2];
    int n = 0;
    for (char *save = NULL, *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == K_COUNT + 1) return fail(ps, "too many fields");
        tok[n++] = t;
    }
    int coll = mg_coll_lookup(tok[0]);
    if (coll < 0 || strcmp(tok[0], mg_coll_name(coll)) || !(mg_coll_flags(coll) & MG_CF_INTERCEPT))
        return fail(ps, "`%.60s` is not an intercepted collective's MPI name", tok[0]);
    mg_rec_row *w = mg_record_add_row(r);
    if (!w) return fail(ps, "more than %d rows (or out of memory)", MG_REC_MAX_ROWS);
    w->coll = coll;
    w->line = ps->line;
    unsigned seen = 0;
    for (int i = 1; i < n; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq) return fail(ps, "`%.60s` is not key=value", tok[i]);
        *eq = 0;
        int k = 0;
        while (k < K_COUNT && strcmp(rkey_names[k], tok[i])) k++;
        if (k == K_COUNT) return fail(ps, "unknown key `%.40s`", tok[i]);
        if (seen & (1u << k)) return fail(ps, "%s given twice", rkey_names[k]);
        seen |= 1u << k;
        int rc = row_value(ps, (enum rkey)k, eq + 1, w);
        if (rc) return rc;
    }
    for (int k = 0; k < K_BLOCK; k++)
        if (!(seen & (1u << k))) return fail(ps, "missing %s=", rkey_names[k]);
    unsigned roots = (seen >> K_ROOTS) & 7u, vkeys = (seen >> K_BLOCK) & 3u;
    if (roots && roots != 7u) return fail(ps, "roots, roots_other and rotations go together");
    if (vkeys && vkeys != 3u) return fail(ps, "block and spread go together");
    int rc = row_check(ps, w);
    if (rc) return rc;
    for (int i = 0; i + 1 < r->nrows; i++)
        if (same_key(&r->rows[i], w))
            return fail(ps, "a second row for the key of line %d", r->rows[i].line);
    return 0;
}

enum hkey {
    H_VERSION,
    H_LIBRARY,
    H_NPROCS,
    H_NODES,
    H_PPN,
    H_HOST,
    H_DATE,
    H_MGVERSION,
    H_COMMAND,
    H_MODE,
    H_PROFILES,
    H_MATCH,
    H_WALL,
    H_LOST,
    H_END,
    H_COUNT
};
static const char *const hkey_names[H_COUNT] = {
    "record_version", "mpi_library", "nprocs",           "nodes",      "ppn",
    "hostname",       "date",        "mpiguide_version", "command",    "mode",
    "profiles",       "match",       "wall_s",           "lost_calls", "end"};

static int header(rparser *ps, char *s, mg_record *r, unsigned *seen, int *ended) {
    char *eq = strchr(s, '=');
    if (!eq) return fail(ps, "`#@` line without `=`");
    *eq = 0;
    char *v = eq + 1;
    int k = 0;
    while (k < H_COUNT && strcmp(hkey_names[k], s)) k++;
    if (k == H_COUNT) {
        if (!*seen) return fail(ps, "not an mpiguide record (it starts with `#@%.40s`)", s);
        return fail(ps, "unknown key `#@%.40s`", s);
    }
    if (!*seen && k != H_VERSION)
        return fail(ps, "not an mpiguide record (the first `#@` line must be #@record_version)");
    if (*seen & (1u << k)) return fail(ps, "#@%s given twice", s);
    *seen |= 1u << k;
    uint64_t x;
    int bad = 0;
    switch ((enum hkey)k) {
    case H_VERSION:
        if (int32(v, &r->version)) return fail(ps, "#@record_version: bad value `%.20s`", v);
        if (r->version != MG_REC_VERSION)
            return fail(ps, "record version %d is not supported (this mpiguide reads version %d)",
                        r->version, MG_REC_VERSION);
        return 0;
    case H_LIBRARY:
        snprintf(r->mpi_library, sizeof r->mpi_library, "%s", v);
        return 0;
    case H_NPROCS:
        bad = int32(v, &r->nprocs) || r->nprocs < 1;
        break;
    case H_NODES:
        bad = int32(v, &r->nodes);
        break;
    case H_PPN:
        bad = int32(v, &r->ppn);
        break;
    case H_HOST:
        snprintf(r->hostname, sizeof r->hostname, "%s", v);
        return 0;
    case H_DATE:
        snprintf(r->date, sizeof r->date, "%s", v);
        return 0;
    case H_MGVERSION:
        snprintf(r->mpiguide_version, sizeof r->mpiguide_version, "%s", v);
        return 0;
    case H_COMMAND:
        snprintf(r->command, sizeof r->command, "%s", v);
        return 0;
    case H_MODE:
        bad = strcmp(v, "untuned") && strcmp(v, "forced") && strcmp(v, "tuned");
        if (!bad) snprintf(r->mode, sizeof r->mode, "%s", v);
        break;
    case H_PROFILES:
        snprintf(r->profiles, sizeof r->profiles, "%s", v);
        return 0;
    case H_MATCH:
        bad = strcmp(v, "exact") && strcmp(v, "size");
        if (!bad) snprintf(r->match, sizeof r->match, "%s", v);
        break;
    case H_WALL:
        bad = secs(v, &r->wall_s);
        break;
    case H_LOST:
        bad = u64(v, UINT64_MAX, &r->lost_calls);
        break;
    case H_END:
        if (u64(v, MG_REC_MAX_ROWS, &x)) return fail(ps, "#@end: bad value `%.20s`", v);
        if ((int)x != r->nrows)
            return fail(ps, "#@end says %llu rows, the file has %d (rows lost?)",
                        (unsigned long long)x, r->nrows);
        *ended = 1;
        return 0;
    case H_COUNT:
        break;
    }
    return bad ? fail(ps, "#@%s: bad value `%.40s`", s, v) : 0;
}

int mg_record_parse(const char *text, size_t len, const char *fname, mg_record *r, char *err,
                    size_t errlen) {
    rparser ps = {fname ? fname : "record", err, errlen, 0};
    memset(r, 0, sizeof *r);
    char *line = malloc(MG_REC_MAX_LINE + 1);
    if (!line) return fail(&ps, "out of memory");
    unsigned seen = 0;
    int ended = 0, rc = 0;
    size_t pos = 0;
    while (pos < len && !rc) {
        ps.line++;
        const char *p = text + pos, *nl = memchr(p, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - p) : len - pos;
        pos += ll + (nl != NULL);
        if (!nl) {
            rc = fail(&ps, "truncated: the last line has no newline (the record was cut short)");
            break;
        }
        if (ll && p[ll - 1] == '\r') ll--;
        if (ll > MG_REC_MAX_LINE) {
            rc = fail(&ps, "line longer than %d characters", MG_REC_MAX_LINE);
            break;
        }
        if (memchr(p, 0, ll)) {
            rc = fail(&ps, "NUL byte: not a text file");
            break;
        }
        memcpy(line, p, ll);
        line[ll] = 0;
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (!*s) continue;
        if (ended) {
            if (*s != '#' || s[1] == '@') rc = fail(&ps, "content after #@end");
            continue;
        }
        if (s[0] == '#' && s[1] == '@')
            rc = header(&ps, s + 2, r, &seen, &ended);
        else if (s[0] == '#')
            continue;
        else if (!(seen & 1u))
            rc =
                fail(&ps, "not an mpiguide record (no #@record_version line before the first row)");
        else
            rc = parse_row(&ps, s, r);
    }
    free(line);
    if (!rc && !seen) {
        ps.line = ps.line ? ps.line : 1;
        rc = fail(&ps, "not an mpiguide record (no #@record_version line)");
    }
    if (!rc && !ended) rc = fail(&ps, "truncated: no #@end line (the record was cut short)");
    if (!rc && !(seen & (1u << H_NPROCS))) rc = fail(&ps, "no #@nprocs line");
    for (int i = 0; !rc && i < r->nrows; i++)
        if (r->rows[i].p > r->nprocs) {
            ps.line = r->rows[i].line;
            rc = fail(&ps, "p=%d is more than the %d processes of the job (#@nprocs)", r->rows[i].p,
                      r->nprocs);
        }
    if (rc) mg_record_free(r);
    return rc;
}

int mg_record_read(const char *path, mg_record *r, char *err, size_t errlen) {
    size_t len = 0;
    char *text = mg_file_read(path, MG_REC_MAX_BYTES, &len);
    if (!text) {
        char why[128];
        memset(r, 0, sizeof *r);
        snprintf(err, errlen, "%s: cannot read the record: %s", path,
                 mg_file_error(errno, MG_REC_MAX_BYTES, why, sizeof why));
        return 2;
    }
    int rc = mg_record_parse(text, len, path, r, err, errlen);
    free(text);
    return rc;
}
