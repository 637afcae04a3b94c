/* The profile parser: a line-oriented state machine over the paper's format (collective,
 * communicator size, numbered mock-ups, ranges). Every problem names its line; nothing is
 * trusted from the input (counts, lengths, numbers), because the fuzzer feeds it garbage. */
#include "profile.h"
#include "catalog/catalog.h"
#include "algid/algid.h"
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum state { S_COLL, S_P, S_NALG, S_ALG, S_NRANGE, S_RANGE, S_DONE };

typedef struct decl {
    int64_t id;
    int alg, line;
} decl;

typedef struct parser {
    mg_profile *out;
    mg_perr *err;
    enum state st;
    int64_t nalg, nrange; /* declared counts */
    int ndecl;
    decl *decls;
    int64_t nr, rcap;
    int line;
} parser;

static int fail(parser *ps, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(parser *ps, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ps->err->line = line;
    vsnprintf(ps->err->what, sizeof ps->err->what, fmt, ap);
    va_end(ap);
    return -1;
}

/* Strict non-negative decimal integer without sign; -1 when malformed or above max. */
static int parse_int(const char *s, int64_t max, int64_t *v) {
    int64_t x = 0;
    if (!*s) return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        int d = *s - '0';
        if (x > (max - d) / 10) return -1;
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

/* Copies a token for a message, shortened so messages stay one readable line. */
static const char *shown(const char *tok, char *buf, size_t n) {
    size_t len = strlen(tok);
    if (len < n) return tok;
    snprintf(buf, n, "%.*s...", (int)(n - 4), tok);
    return buf;
}

/* Strict finite decimal number in [lo, hi]; -1 otherwise. */
static int parse_real(const char *s, double lo, double hi, double *v) {
    char *end;
    if (!*s || isspace((unsigned char)*s)) return -1;
    double x = strtod(s, &end);
    if (*end || !(x >= lo && x <= hi)) return -1;
    *v = x;
    return 0;
}

/* Splits s at white space into at most max tokens (more: returns max + 1). */
static int tokens(char *s, char **tok, int max) {
    int n = 0;
    while (*s) {
        while (isspace((unsigned char)*s)) s++;
        if (!*s) break;
        if (n == max) return max + 1;
        tok[n++] = s;
        while (*s && !isspace((unsigned char)*s)) s++;
        if (*s) *s++ = 0;
    }
    return n;
}

/* `#@validated=MSIZE ALG speedup=S min_speedup=M launches=N p=P`: every key once, nothing
 * else. The algorithm is checked against the ranges once they are known (finish). */
static int validated(parser *ps, char *val) {
    mg_profile *o = ps->out;
    char *tok[6], b[48];
    int n = tokens(val, tok, 6);
    mg_pvalid v = {.line = ps->line};
    if (n != 6 || parse_int(tok[0], INT64_MAX, &v.msize) || strlen(tok[1]) >= sizeof v.alg)
        return fail(ps, ps->line,
                    "#@validated: expected `MSIZE ALG speedup=S min_speedup=M launches=N p=P`");
    snprintf(v.alg, sizeof v.alg, "%s", tok[1]);
    static const char *const keys[4] = {"speedup", "min_speedup", "launches", "p"};
    int seen = 0;
    for (int i = 2; i < n; i++) {
        char *eq = strchr(tok[i], '=');
        int k = -1;
        for (int j = 0; eq && j < 4; j++)
            if ((size_t)(eq - tok[i]) == strlen(keys[j]) &&
                !strncmp(tok[i], keys[j], strlen(keys[j])))
                k = j;
        if (k < 0 || (seen & (1 << k)))
            return fail(ps, ps->line, "#@validated: unknown or repeated `%s`",
                        shown(tok[i], b, 48));
        seen |= 1 << k;
        double x;
        int64_t l;
        int bad = k == 2   ? parse_int(eq + 1, 1000000, &l) || l < 1
                  : k == 3 ? parse_real(eq + 1, 0.0, 1.0, &x)
                           : parse_real(eq + 1, 1e-300, 1e300, &x);
        if (bad) return fail(ps, ps->line, "#@validated: bad value in `%s`", shown(tok[i], b, 48));
        if (k == 0) v.speedup = x;
        if (k == 1) v.min_speedup = x;
        if (k == 2) v.launches = (int)l;
        if (k == 3) v.p = x;
    }
    if (o->nvalid >= MG_PROFILE_MAX_RANGES)
        return fail(ps, ps->line, "#@validated: more than %d lines", MG_PROFILE_MAX_RANGES);
    mg_pvalid *nv = realloc(o->valid, (size_t)(o->nvalid + 1) * sizeof *nv);
    if (!nv) return fail(ps, ps->line, "out of memory");
    o->valid = nv;
    o->valid[o->nvalid++] = v;
    return 0;
}

/* `#@measured=S1,S2,...`: the sizes the check measured for this profile, ascending, once. */
static int measured(parser *ps, const char *val) {
    mg_profile *o = ps->out;
    if (o->nmeasured) return fail(ps, ps->line, "#@measured: repeated");
    char b[48], tok[32];
    for (const char *s = val; *s;) {
        size_t n = strcspn(s, ",");
        int64_t v;
        snprintf(tok, sizeof tok, "%.*s", (int)(n < sizeof tok ? n : sizeof tok - 1), s);
        if (!n || n >= sizeof tok || parse_int(tok, INT64_MAX, &v) ||
            (o->nmeasured && v <= o->measured[o->nmeasured - 1]) ||
            o->nmeasured >= MG_PROFILE_MAX_RANGES)
            return fail(ps, ps->line, "#@measured: expected ascending sizes `S1,S2,...`, at `%s`",
                        shown(tok, b, sizeof b));
        int64_t *nv = realloc(o->measured, (size_t)(o->nmeasured + 1) * sizeof *nv);
        if (!nv) return fail(ps, ps->line, "out of memory");
        o->measured = nv;
        o->measured[o->nmeasured++] = v;
        s += n;
        if (*s == ',' && !*++s)
            return fail(ps, ps->line, "#@measured: expected ascending sizes `S1,S2,...`");
    }
    return 0;
}

/* `#@online=MSIZE ALG calls=N explored=E cost_s=C candidates=K [speedup=S ci95=LO..HI]`: every
 * key once, speedup and ci95 exactly when ALG is not `default`. The algorithm is checked against
 * the ranges once they are known (finish). */
static int online(parser *ps, char *val) {
    mg_profile *o = ps->out;
    char *tok[9], b[48];
    int n = tokens(val, tok, 8);
    mg_ponline v = {.line = ps->line, .speedup = NAN, .ci_lo = NAN, .ci_hi = NAN};
    if (n < 6 || n > 8 || parse_int(tok[0], INT64_MAX, &v.msize) || strlen(tok[1]) >= sizeof v.alg)
        return fail(ps, ps->line,
                    "#@online: expected `MSIZE ALG calls=N explored=E cost_s=C candidates=K "
                    "[speedup=S ci95=LO..HI]`");
    snprintf(v.alg, sizeof v.alg, "%s", tok[1]);
    static const char *const keys[6] = {"calls",      "explored", "cost_s",
                                        "candidates", "speedup",  "ci95"};
    int seen = 0;
    for (int i = 2; i < n; i++) {
        char *eq = strchr(tok[i], '='), *dots;
        int k = -1;
        for (int j = 0; eq && j < 6; j++)
            if ((size_t)(eq - tok[i]) == strlen(keys[j]) &&
                !strncmp(tok[i], keys[j], strlen(keys[j])))
                k = j;
        if (k < 0 || (seen & (1 << k)))
            return fail(ps, ps->line, "#@online: unknown or repeated `%s`", shown(tok[i], b, 48));
        seen |= 1 << k;
        int64_t l = 0;
        int bad;
        switch (k) {
        case 0:
        case 1:
        case 3:
            bad = parse_int(eq + 1, INT64_MAX, &l) || (k == 0 && l < 1) ||
                  (k == 3 && l > MG_PROFILE_MAX_ALGS);
            if (k == 0) v.calls = (uint64_t)l;
            if (k == 1) v.explored = (uint64_t)l;
            if (k == 3) v.candidates = (int)l;
            break;
        case 2:
            bad = parse_real(eq + 1, -1e300, 1e300, &v.cost_s); /* gains count: it may be < 0 */
            break;
        case 4:
            bad = parse_real(eq + 1, 1e-300, 1e300, &v.speedup);
            break;
        default:
            dots = strstr(eq + 1, "..");
            bad = !dots;
            if (!bad) {
                *dots = 0;
                bad = parse_real(eq + 1, 1e-300, 1e300, &v.ci_lo) ||
                      parse_real(dots + 2, 1e-300, 1e300, &v.ci_hi) || v.ci_lo > v.ci_hi;
                *dots = '.';
            }
            break;
        }
        if (bad) return fail(ps, ps->line, "#@online: bad value in `%s`", shown(tok[i], b, 48));
    }
    int winner = strcmp(v.alg, "default") != 0;
    if ((seen & 15) != 15 || ((seen >> 4) != (winner ? 3 : 0)))
        return fail(ps, ps->line,
                    winner ? "#@online: calls, explored, cost_s, candidates, speedup and ci95 "
                             "are required for a winner"
                           : "#@online: calls, explored, cost_s and candidates are required, "
                             "speedup and ci95 only for a winner");
    if (v.explored > v.calls)
        return fail(ps, ps->line, "#@online: explored=%llu exceeds calls=%llu",
                    (unsigned long long)v.explored, (unsigned long long)v.calls);
    if (o->nonline >= MG_PROFILE_MAX_RANGES)
        return fail(ps, ps->line, "#@online: more than %d lines", MG_PROFILE_MAX_RANGES);
    mg_ponline *nv = realloc(o->online, (size_t)(o->nonline + 1) * sizeof *nv);
    if (!nv) return fail(ps, ps->line, "out of memory");
    o->online = nv;
    o->online[o->nonline++] = v;
    return 0;
}

/* `#@key=value` provenance lines; unknown keys are kept for future writers and ignored. */
static int provenance(parser *ps, char *s) {
    char *eq = strchr(s, '=');
    if (!eq) return 0;
    *eq = 0;
    char *key = s, *val = eq + 1;
    size_t kl = strlen(key);
    while (kl && isspace((unsigned char)key[kl - 1])) key[--kl] = 0;
    while (isspace((unsigned char)*val)) val++;
    size_t vl = strlen(val);
    while (vl && isspace((unsigned char)val[vl - 1])) val[--vl] = 0;
    mg_profile *o = ps->out;
    char *dst = NULL;
    size_t cap = 0;
    if (!strcmp(key, "mpi_library")) dst = o->mpi_library, cap = sizeof o->mpi_library;
    if (!strcmp(key, "datatype")) dst = o->datatype, cap = sizeof o->datatype;
    if (!strcmp(key, "operation")) dst = o->operation, cap = sizeof o->operation;
    if (!strcmp(key, "date")) dst = o->date, cap = sizeof o->date;
    if (!strcmp(key, "timing")) dst = o->timing, cap = sizeof o->timing;
    if (!strcmp(key, "roots")) dst = o->roots, cap = sizeof o->roots;
    if (dst) {
        snprintf(dst, cap, "%s", val);
        return 0;
    }
    if (!strcmp(key, "validated")) return validated(ps, val);
    if (!strcmp(key, "measured")) return measured(ps, val);
    if (!strcmp(key, "online")) return online(ps, val);
    int *num = !strcmp(key, "nodes") ? &o->nodes : !strcmp(key, "ppn") ? &o->ppn : NULL;
    if (num) {
        int64_t v;
        char b[48];
        if (parse_int(val, 0x7fffffff, &v) || v < 1)
            return fail(ps, ps->line, "#@%s: not a positive integer: `%s`", key,
                        shown(val, b, sizeof b));
        *num = (int)v;
    }
    return 0;
}

static int decl_cmp(const void *a, const void *b) {
    const decl *x = a, *y = b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->line - y->line;
}

static int range_cmp(const void *a, const void *b) {
    const mg_prange *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    return x->line - y->line;
}

static const decl *find_decl(const parser *ps, int64_t id) {
    int lo = 0, hi = ps->ndecl - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (ps->decls[mid].id == id) return &ps->decls[mid];
        if (ps->decls[mid].id < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return NULL;
}

static const char *coll_name(const parser *ps) {
    return mg_coll_name(ps->out->coll);
}

/* One line with its n tokens (n >= 1). */
static int record(parser *ps, char **tok, int n) {
    mg_profile *o = ps->out;
    int64_t v, w, id;
    char b1[48], b2[48];
    switch (ps->st) {
    case S_COLL: {
        if (n != 1) return fail(ps, ps->line, "expected the collective name alone on its line");
        int c = mg_coll_lookup(tok[0]);
        if (c < 0) return fail(ps, ps->line, "unknown collective `%s`", shown(tok[0], b1, 48));
        if (!(mg_coll_flags(c) & MG_CF_INTERCEPT))
            return fail(ps, ps->line, "%s is not intercepted, so it cannot be tuned",
                        mg_coll_name(c));
        o->coll = c;
        o->line = ps->line;
        ps->st = S_P;
        return 0;
    }
    case S_P:
        if (n != 1 || parse_int(tok[0], 0x7fffffff, &v) || v < 1)
            return fail(ps, ps->line, "expected the number of processes (a positive integer)");
        o->p = (int)v;
        ps->st = S_NALG;
        return 0;
    case S_NALG:
        if (n != 1 || parse_int(tok[0], MG_PROFILE_MAX_ALGS, &v))
            return fail(ps, ps->line, "expected the number of mock-ups (0 to %d)",
                        MG_PROFILE_MAX_ALGS);
        ps->nalg = v;
        ps->decls = v ? calloc((size_t)v, sizeof *ps->decls) : NULL;
        if (v && !ps->decls) return fail(ps, ps->line, "out of memory");
        ps->st = v ? S_ALG : S_NRANGE;
        return 0;
    case S_ALG: {
        if (n != 2 || parse_int(tok[0], 0x7fffffff, &id))
            return fail(ps, ps->line, "expected `id algorithm` (mock-up %d of %lld)", ps->ndecl + 1,
                        (long long)ps->nalg);
        int alg = mg_alg_lookup(o->coll, tok[1]);
        /* a library algorithm's name is taken as written: the library resolves it when it
         * starts (src/libalg/resolve.c) */
        if (alg < 0) alg = mg_libalg_intern(o->coll, tok[1]);
        if (alg < 0)
            return fail(ps, ps->line, "unknown algorithm `%s` for %s", shown(tok[1], b1, 48),
                        coll_name(ps));
        ps->decls[ps->ndecl++] = (decl){id, alg, ps->line};
        if (ps->ndecl < ps->nalg) return 0;
        qsort(ps->decls, (size_t)ps->ndecl, sizeof *ps->decls, decl_cmp);
        for (int i = 1; i < ps->ndecl; i++)
            if (ps->decls[i].id == ps->decls[i - 1].id)
                return fail(ps, ps->decls[i].line, "algorithm id %lld declared twice (line %d)",
                            (long long)ps->decls[i].id, ps->decls[i - 1].line);
        ps->st = S_NRANGE;
        return 0;
    }
    case S_NRANGE:
        if (n != 1 || parse_int(tok[0], MG_PROFILE_MAX_RANGES, &v))
            return fail(ps, ps->line, "expected the number of ranges (0 to %d)",
                        MG_PROFILE_MAX_RANGES);
        ps->nrange = v;
        ps->st = v ? S_RANGE : S_DONE;
        return 0;
    case S_RANGE: {
        if (n != 3)
            return fail(ps, ps->line, "expected `start end id` (range %lld of %lld)",
                        (long long)ps->nr + 1, (long long)ps->nrange);
        if (parse_int(tok[0], INT64_MAX, &v) || parse_int(tok[1], INT64_MAX, &w))
            return fail(ps, ps->line, "range bounds must be byte counts from 0 to %lld",
                        (long long)INT64_MAX);
        if (parse_int(tok[2], 0x7fffffff, &id))
            return fail(ps, ps->line, "bad algorithm id `%s`", shown(tok[2], b2, 48));
        if (v > w)
            return fail(ps, ps->line, "range start %lld > end %lld", (long long)v, (long long)w);
        const decl *d = find_decl(ps, id);
        if (!d) return fail(ps, ps->line, "undeclared algorithm id %lld", (long long)id);
        if (ps->nr == ps->rcap) {
            int64_t cap = ps->rcap ? 2 * ps->rcap : 16;
            if (cap > ps->nrange) cap = ps->nrange;
            mg_prange *r = realloc(o->ranges, (size_t)cap * sizeof *r);
            if (!r) return fail(ps, ps->line, "out of memory");
            o->ranges = r;
            ps->rcap = cap;
        }
        o->ranges[ps->nr++] = (mg_prange){v, w, d->alg, ps->line};
        o->nranges = (int)ps->nr;
        if (ps->nr == ps->nrange) ps->st = S_DONE;
        return 0;
    }
    case S_DONE:
        return fail(ps, ps->line, "unexpected `%s` after the %lld declared range(s)",
                    shown(tok[0], b1, 48), (long long)ps->nrange);
    }
    return -1;
}

static int truncated(parser *ps) {
    switch (ps->st) {
    case S_COLL:
        return fail(ps, ps->line, "empty profile: no collective name");
    case S_P:
        return fail(ps, ps->line, "truncated: the number of processes is missing");
    case S_NALG:
        return fail(ps, ps->line, "truncated: the number of mock-ups is missing");
    case S_ALG:
        return fail(ps, ps->line, "truncated: %d of %lld mock-up(s) listed", ps->ndecl,
                    (long long)ps->nalg);
    case S_NRANGE:
        return fail(ps, ps->line, "truncated: the number of ranges is missing");
    case S_RANGE:
        return fail(ps, ps->line, "truncated: %lld of %lld range(s) listed", (long long)ps->nr,
                    (long long)ps->nrange);
    case S_DONE:
        break;
    }
    return 0;
}

/* Sorted ranges must be disjoint; v-collectives allow only the one all-sizes range. */
static int finish(parser *ps) {
    mg_profile *o = ps->out;
    if (o->nranges > 1) qsort(o->ranges, (size_t)o->nranges, sizeof *o->ranges, range_cmp);
    for (int i = 1; i < o->nranges; i++) {
        const mg_prange *a = &o->ranges[i - 1], *b = &o->ranges[i];
        if (b->lo <= a->hi) {
            const mg_prange *later = a->line > b->line ? a : b, *other = later == a ? b : a;
            return fail(ps, later->line, "range %lld-%lld overlaps range %lld-%lld (line %d)",
                        (long long)later->lo, (long long)later->hi, (long long)other->lo,
                        (long long)other->hi, other->line);
        }
    }
    if (mg_coll_sizeless(o->coll) && o->nranges &&
        (o->nranges != 1 || o->ranges[0].lo != 0 || o->ranges[0].hi != INT64_MAX))
        return fail(ps, o->ranges[0].line,
                    "%s selects by communicator size only: its one range must be `0 %lld`",
                    coll_name(ps), (long long)INT64_MAX);
    /* a validation record must describe what the profile selects */
    for (int i = 0; i < o->nvalid; i++) {
        const mg_pvalid *v = &o->valid[i];
        char b[48];
        int alg = mg_alg_lookup(o->coll, v->alg), sel = mg_profile_select_linear(o, v->msize);
        if (alg < 0)
            return fail(ps, v->line, "#@validated: unknown algorithm `%s` for %s",
                        shown(v->alg, b, 48), coll_name(ps));
        if (sel != alg)
            return fail(ps, v->line, "#@validated: the profile selects %s at %lld, not %s",
                        sel < 0 ? "the default" : mg_alg_name(sel), (long long)v->msize,
                        mg_alg_name(alg));
    }
    /* and so must an online record */
    for (int i = 0; i < o->nonline; i++) {
        const mg_ponline *v = &o->online[i];
        char b[48];
        int alg = mg_alg_lookup(o->coll, v->alg), sel = mg_profile_select_linear(o, v->msize);
        if (alg < 0)
            return fail(ps, v->line, "#@online: unknown algorithm `%s` for %s",
                        shown(v->alg, b, 48), coll_name(ps));
        if (sel != alg)
            return fail(ps, v->line, "#@online: the profile selects %s at %lld, not %s",
                        sel < 0 ? "nothing (the default)" : mg_alg_name(sel), (long long)v->msize,
                        mg_alg_name(alg));
    }
    return 0;
}

int mg_profile_parse(const char *text, size_t len, mg_profile *out, mg_perr *err) {
    parser ps = {.out = out, .err = err, .st = S_COLL};
    char buf[MG_PROFILE_MAX_LINE + 1];
    int rc = 0;
    memset(out, 0, sizeof *out);
    out->coll = -1;
    err->line = 0;
    err->what[0] = 0;
    size_t pos = 0;
    while (pos < len && rc == 0) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        pos += ll + (nl != NULL);
        ps.line++;
        if (ll && line[ll - 1] == '\r') ll--;
        if (ll > MG_PROFILE_MAX_LINE) {
            rc = fail(&ps, ps.line, "line longer than %d characters", MG_PROFILE_MAX_LINE);
            break;
        }
        if (memchr(line, 0, ll)) {
            rc = fail(&ps, ps.line, "NUL byte: not a text file");
            break;
        }
        memcpy(buf, line, ll);
        buf[ll] = 0;
        char *s = buf;
        while (isspace((unsigned char)*s)) s++;
        if (s[0] == '#' && s[1] == '@') {
            rc = provenance(&ps, s + 2);
            continue;
        }
        char *hash = strchr(s, '#');
        if (hash) *hash = 0;
        char *tok[4];
        int n = 0;
        while (*s && n < 4) {
            while (isspace((unsigned char)*s)) s++;
            if (!*s) break;
            tok[n++] = s;
            while (*s && !isspace((unsigned char)*s)) s++;
            if (*s) *s++ = 0;
        }
        if (n) rc = record(&ps, tok, n);
    }
    if (rc == 0) rc = truncated(&ps);
    if (rc == 0) rc = finish(&ps);
    free(ps.decls);
    if (rc) mg_profile_free(out);
    return rc;
}

void mg_profile_free(mg_profile *p) {
    free(p->ranges);
    free(p->valid);
    free(p->measured);
    p->measured = NULL;
    p->nmeasured = 0;
    free(p->online);
    p->online = NULL;
    p->nonline = 0;
    p->ranges = NULL;
    p->nranges = 0;
    p->valid = NULL;
    p->nvalid = 0;
}

int mg_profile_select_linear(const mg_profile *p, int64_t msize) {
    for (int i = 0; i < p->nranges; i++)
        if (p->ranges[i].lo <= msize && msize <= p->ranges[i].hi) return p->ranges[i].alg;
    return -1;
}
