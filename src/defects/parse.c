/* The parser of the defect table (docs/dev/interfaces.md section 14): records that start with
 * `defect NAME`, then `key value...` lines; `#` starts a comment. A problem names WHERE:LINE and
 * leaves its entry out; nothing unknown is skipped silently. */
#include "algid/algid.h"
#include "defects.h"
#include "catalog/catalog.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fact_names[MG_NFACTS] = {
    "p",       "pow2",         "root",         "count",       "bytes",
    "extent",  "true_lb",      "true_extent",  "commutative", "predefined_op",
    "inplace", "regular",      "op",           "type",        "unsigned",
    "mixed",   "types_differ", "vector_bytes", "total_bytes", "zero_counts"};

const char *mg_fact_name(int fact) {
    return fact >= 0 && fact < MG_NFACTS ? fact_names[fact] : "?";
}

/* The op and datatype names of conditions: the rows of catalog/ops.def (the short names) and
 * catalog/datatypes.def, whose row + 1 is the code (runtime/mpi_defects.c expands the same rows
 * to handles). */
const char *const mg_op_names[] = {
#define MG_OPDEF(N, SHORT, ...) #SHORT,
#include "catalog/ops.def"
#undef MG_OPDEF
};
const int mg_nop_names = (int)(sizeof mg_op_names / sizeof mg_op_names[0]);

/* The unsigned integer types are those whose name starts with MPI_UNSIGNED or MPI_UINT. */
const char *const mg_type_names[] = {
#define MG_DTYPE(N, ...) #N,
#include "catalog/datatypes.def"
#undef MG_DTYPE
};
const int mg_ntype_names = (int)(sizeof mg_type_names / sizeof mg_type_names[0]);

int mg_op_code(const char *name) {
    for (int i = 0; name && i < mg_nop_names; i++)
        if (!strcmp(name, mg_op_names[i])) return i + 1;
    return 0;
}

int mg_type_code(const char *name) {
    for (int i = 0; name && i < mg_ntype_names; i++)
        if (!strcmp(name, mg_type_names[i])) return i + 1;
    return 0;
}

int mg_type_code_unsigned(int code) {
    if (code < 1 || code > mg_ntype_names) return 0;
    const char *n = mg_type_names[code - 1];
    return !strncmp(n, "MPI_UNSIGNED", 12) || !strncmp(n, "MPI_UINT", 8);
}

static int fact_lookup(const char *s, size_t n) {
    for (int i = 0; i < MG_NFACTS; i++)
        if (strlen(fact_names[i]) == n && !strncmp(s, fact_names[i], n)) return i;
    return -1;
}

typedef struct parser {
    const char *where;
    int line, problems;
    mg_diag_fn diag;
    void *ctx;
} parser;

static int problem(parser *ps, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int problem(parser *ps, int line, const char *fmt, ...) {
    char where[512], what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(where, sizeof where, "%s:%d", ps->where, line);
    if (ps->diag) ps->diag(ps->ctx, 1, where, what);
    ps->problems++;
    return -1;
}

/* A version "4", "4.1" or "4.1.1", or "-" for an open end. Missing parts take `fill`: 0 for a
 * first version, MG_VERSION_ANY for a last one, so "4.1" as the last covers every 4.1.x. */
static int parse_version(const char *s, int v[3], int fill) {
    if (!strcmp(s, "-")) {
        v[0] = v[1] = v[2] = MG_VERSION_OPEN;
        return 0;
    }
    v[0] = v[1] = v[2] = fill;
    for (int k = 0; k < 3; k++) {
        char *end;
        if (!isdigit((unsigned char)*s)) return -1;
        errno = 0;
        long x = strtol(s, &end, 10);
        if (errno || x > 100000) return -1;
        v[k] = (int)x;
        if (!*end) return 0;
        if (*end != '.' || k == 2) return -1;
        s = end + 1;
    }
    return -1;
}

/* One term FACT CMP VALUE; VALUE a (possibly negative) integer or a fact. */
static int parse_term(const char *s, mg_dterm *t) {
    static const struct {
        const char *op;
        int cmp;
    } ops[] = {{"!=", MG_CMP_NE}, {"<=", MG_CMP_LE}, {">=", MG_CMP_GE},
               {"=", MG_CMP_EQ},  {"<", MG_CMP_LT},  {">", MG_CMP_GT}};
    size_t n = strcspn(s, "!<>=");
    if (!s[n] || (t->fact = fact_lookup(s, n)) < 0) return -1;
    const char *rest = s + n;
    size_t k = 0;
    for (; k < sizeof ops / sizeof ops[0]; k++)
        if (!strncmp(rest, ops[k].op, strlen(ops[k].op))) break;
    if (k == sizeof ops / sizeof ops[0]) return -1;
    t->cmp = ops[k].cmp;
    rest += strlen(ops[k].op);
    t->rhs_fact = -1;
    t->rhs = 0;
    t->nvals = 0;
    if (t->fact == MG_FACT_OP || t->fact == MG_FACT_TYPE) { /* names, | for alternatives */
        if (t->cmp != MG_CMP_EQ && t->cmp != MG_CMP_NE) return -1;
        char names[256];
        if (strlen(rest) >= sizeof names) return -1;
        strcpy(names, rest);
        for (char *save = NULL, *n = strtok_r(names, "|", &save); n;
             n = strtok_r(NULL, "|", &save)) {
            int code =
                t->fact == MG_FACT_OP ? (!strcmp(n, "user") ? 0 : mg_op_code(n)) : mg_type_code(n);
            if ((!code && strcmp(n, "user")) || t->nvals == MG_DTERM_VALUES) return -1;
            t->vals[t->nvals++] = code;
        }
        return t->nvals ? 0 : -1;
    }
    if (isdigit((unsigned char)*rest) || (*rest == '-' && isdigit((unsigned char)rest[1]))) {
        char *end;
        errno = 0;
        long long x = strtoll(rest, &end, 10);
        if (errno || *end) return -1;
        t->rhs = x;
        return 0;
    }
    t->rhs_fact = fact_lookup(rest, strlen(rest));
    return t->rhs_fact < 0 ? -1 : 0;
}

/* Keys of an entry, each allowed once. */
enum {
    K_MPI,
    K_COLLECTIVE,
    K_WHEN,
    K_EFFECT,
    K_SUMMARY,
    K_REPAIR,
    K_REPRODUCER,
    K_REFERENCE,
    K_SEEN,
    K_COUNT
};
static const char *const key_names[K_COUNT] = {
    "mpi", "collective", "when", "effect", "summary", "repair", "reproducer", "reference", "seen"};
static const unsigned required =
    1u << K_MPI | 1u << K_COLLECTIVE | 1u << K_EFFECT | 1u << K_SUMMARY | 1u << K_REPRODUCER;

typedef struct entry {
    mg_defect d;
    unsigned have;
    int bad;
} entry;

static int copy_text(parser *ps, char *dst, size_t cap, const char *v, const char *key) {
    if (strlen(v) >= cap)
        return problem(ps, ps->line, "%s: longer than %zu characters", key, cap - 1);
    snprintf(dst, cap, "%s", v);
    return 0;
}

/* The words of a value, separated by blanks, written into w (at most max). */
static int words(char *v, char **w, int max) {
    int n = 0;
    for (char *save = NULL, *t = strtok_r(v, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n == max) return -1;
        w[n++] = t;
    }
    return n;
}

static int apply_key(parser *ps, entry *e, int key, char *v) {
    mg_defect *d = &e->d;
    char *w[MG_DEFECT_TERMS + 1];
    int n;
    switch (key) {
    case K_MPI:
        n = words(v, w, 3);
        if (n != 3) return problem(ps, ps->line, "mpi: expected `FAMILY FIRST LAST`");
        d->family = !strcmp(w[0], "openmpi") ? MG_MPI_OPENMPI
                    : !strcmp(w[0], "mpich") ? MG_MPI_MPICH
                    : !strcmp(w[0], "smpi")  ? MG_MPI_SMPI
                                             : MG_MPI_UNKNOWN;
        if (d->family == MG_MPI_UNKNOWN)
            return problem(ps, ps->line, "mpi: unknown family `%s` (openmpi, mpich, smpi)", w[0]);
        if (parse_version(w[1], d->first, 0) || parse_version(w[2], d->last, MG_VERSION_ANY))
            return problem(ps, ps->line, "mpi: versions are `X[.Y[.Z]]` or `-`");
        return 0;
    case K_COLLECTIVE:
        n = words(v, w, MG_DEFECT_TERMS);
        if (n <= 0) return problem(ps, ps->line, "collective: expected MPI names");
        for (int i = 0; i < n; i++) {
            int c = mg_coll_lookup(w[i]);
            if (c < 0) return problem(ps, ps->line, "collective: unknown collective `%s`", w[i]);
            d->colls |= 1u << c;
        }
        return 0;
    case K_WHEN:
        n = words(v, w, MG_DEFECT_TERMS);
        if (n < 0) return problem(ps, ps->line, "when: more than %d terms", MG_DEFECT_TERMS);
        for (int i = 0; i < n; i++)
            if (parse_term(w[i], &d->terms[d->nterms++]))
                return problem(ps, ps->line,
                               "when: `%s` is not FACT{=,!=,<,<=,>,>=}VALUE (op and type: "
                               "=NAME[|NAME...] or !=...)",
                               w[i]);
        return 0;
    case K_EFFECT:
        if (!strcmp(v, "crash"))
            d->effect = MG_EFFECT_CRASH;
        else if (!strcmp(v, "wrong"))
            d->effect = MG_EFFECT_WRONG;
        else if (!strcmp(v, "error"))
            d->effect = MG_EFFECT_ERROR;
        else
            return problem(ps, ps->line, "effect: expected `crash`, `wrong` or `error`");
        return 0;
    case K_SUMMARY:
        return copy_text(ps, d->summary, sizeof d->summary, v, "summary");
    case K_REPRODUCER:
        return copy_text(ps, d->reproducer, sizeof d->reproducer, v, "reproducer");
    case K_REFERENCE:
        return copy_text(ps, d->reference, sizeof d->reference, v, "reference");
    case K_SEEN:
        return copy_text(ps, d->seen, sizeof d->seen, v, "seen");
    case K_REPAIR:
        n = words(v, w, MG_DEFECT_REPAIRS);
        if (n <= 0)
            return problem(ps, ps->line, "repair: expected 1 to %d algorithm names",
                           MG_DEFECT_REPAIRS);
        for (int i = 0; i < n; i++) {
            int id = -1;
            for (int c = 0; c < mg_ncolls && id < 0; c++) {
                int a = mg_alg_lookup(c, w[i]);
                if (a >= 0 && strcmp(w[i], "default")) id = a;
            }
            if (id < 0) return problem(ps, ps->line, "repair: unknown algorithm `%s`", w[i]);
            d->repair[d->nrepair++] = id;
        }
        return 0;
    }
    return -1;
}

/* Checks an entry once its last line is read; 0 to keep it. */
static int finish(parser *ps, entry *e) {
    mg_defect *d = &e->d;
    if (e->bad) return -1;
    for (int k = 0; k < K_COUNT; k++)
        if ((required >> k & 1u) && !(e->have >> k & 1u))
            return problem(ps, d->line, "defect %s: no `%s` line", d->name, key_names[k]);
    for (int i = 0; i < d->nrepair; i++)
        if (!(d->colls >> mg_alg_coll(d->repair[i]) & 1u))
            return problem(ps, d->line,
                           "defect %s: repair %s is not an algorithm of its collectives", d->name,
                           mg_alg_name(d->repair[i]));
    return 0;
}

static int add(mg_defect_table *t, const mg_defect *d) {
    mg_defect *v = realloc(t->v, sizeof *v * (size_t)(t->n + 1));
    if (!v) return -1;
    t->v = v;
    t->v[t->n++] = *d;
    return 0;
}

static int close_entry(parser *ps, mg_defect_table *t, entry *e, int *open) {
    if (!*open) return 0;
    *open = 0;
    if (finish(ps, e)) return 0;
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->v[i].name, e->d.name))
            return problem(ps, e->d.line, "defect %s: listed twice (first at line %d)", e->d.name,
                           t->v[i].line);
    if (add(t, &e->d)) return problem(ps, e->d.line, "out of memory");
    return 0;
}

static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

int mg_defects_parse(const char *text, const char *where, mg_defect_table *t, mg_diag_fn diag,
                     void *ctx) {
    parser ps = {where, 0, 0, diag, ctx};
    entry e;
    int open = 0;
    t->n = 0;
    t->v = NULL;
    for (const char *s = text; *s;) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char line[1024];
        ps.line++;
        if (len >= sizeof line) {
            problem(&ps, ps.line, "line longer than %zu characters", sizeof line - 1);
            if (open) e.bad = 1;
            s += len + (nl ? 1 : 0);
            continue;
        }
        memcpy(line, s, len);
        line[len] = 0;
        s += len + (nl ? 1 : 0);
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        char *l = trim(line);
        if (!*l) continue;
        size_t kl = strcspn(l, " \t");
        char *v = trim(l + kl);
        l[kl] = 0;
        if (!strcmp(l, "defect")) {
            close_entry(&ps, t, &e, &open);
            memset(&e, 0, sizeof e);
            open = 1;
            e.d.line = ps.line;
            if (!*v || strcspn(v, " \t") != strlen(v) || strlen(v) >= sizeof e.d.name) {
                problem(&ps, ps.line, "defect: expected one name (at most %zu characters)",
                        sizeof e.d.name - 1);
                e.bad = 1;
            } else {
                snprintf(e.d.name, sizeof e.d.name, "%s", v);
            }
            continue;
        }
        if (!open) {
            problem(&ps, ps.line, "`%s` outside an entry (entries start with `defect NAME`)", l);
            continue;
        }
        int key = -1;
        for (int k = 0; k < K_COUNT && key < 0; k++)
            if (!strcmp(l, key_names[k])) key = k;
        if (key < 0) {
            problem(&ps, ps.line, "unknown key `%s`", l);
            e.bad = 1;
        } else if (e.have >> key & 1u) {
            problem(&ps, ps.line, "`%s` given twice", l);
            e.bad = 1;
        } else if (!*v) {
            problem(&ps, ps.line, "`%s` without a value", l);
            e.bad = 1;
        } else {
            e.have |= 1u << key;
            if (apply_key(&ps, &e, key, v)) e.bad = 1;
        }
    }
    close_entry(&ps, t, &e, &open);
    return ps.problems;
}

void mg_defects_free(mg_defect_table *t) {
    free(t->v);
    t->v = NULL;
    t->n = 0;
}
