/* Which entries of the defect table concern the running MPI (family and version), and whether a
 * call's facts meet an entry's condition, with three answers so that a rank that does not know
 * a fact (a non-root, whether the root passes MPI_IN_PLACE) can still decide safely. */
#include "defects.h"
#include "catalog/catalog.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *mg_mpi_family_name(int family) {
    return family == MG_MPI_OPENMPI ? "openmpi"
           : family == MG_MPI_MPICH ? "mpich"
           : family == MG_MPI_SMPI  ? "smpi"
                                    : "unknown";
}

/* Up to three dot-separated numbers at s. */
static int read_version(const char *s, int v[3]) {
    v[0] = v[1] = v[2] = 0;
    if (!isdigit((unsigned char)*s)) return -1;
    for (int k = 0; k < 3; k++) {
        char *end;
        v[k] = (int)strtol(s, &end, 10);
        if (*end != '.' || !isdigit((unsigned char)end[1])) break;
        s = end + 1;
    }
    return 0;
}

int mg_mpi_version_parse(const char *s, int *family, int version[3]) {
    const char *at;
    *family = MG_MPI_UNKNOWN;
    version[0] = version[1] = version[2] = 0;
    if ((at = strstr(s, "Open MPI v"))) {
        *family = MG_MPI_OPENMPI;
        return read_version(at + 10, version);
    }
    if ((at = strstr(s, "MPICH Version:"))) {
        *family = MG_MPI_MPICH;
        at += 14;
        while (*at == ' ' || *at == '\t') at++;
        return read_version(at, version);
    }
    if (!strncmp(s, "SMPI Version ", 13)) { /* SimGrid's; its version is SimGrid's */
        *family = MG_MPI_SMPI;
        return read_version(s + 13, version);
    }
    return -1;
}

static int vcmp(const int a[3], const int b[3]) {
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
    return 0;
}

int mg_defect_applies(const mg_defect *d, int family, const int version[3]) {
    if (d->family != family) return 0;
    if (d->first[0] != MG_VERSION_OPEN && vcmp(version, d->first) < 0) return 0;
    if (d->last[0] != MG_VERSION_OPEN && vcmp(version, d->last) > 0) return 0;
    return 1;
}

int mg_defects_for_library(const mg_defect_table *t, const char *version_string,
                           unsigned char *applies) {
    int family, version[3], n = 0;
    int known = mg_mpi_version_parse(version_string, &family, version) == 0;
    for (int i = 0; i < t->n; i++) {
        applies[i] = known && mg_defect_applies(&t->v[i], family, version);
        n += applies[i];
    }
    return n;
}

void mg_facts_fill(mg_facts *f, int coll, int p, int root, int64_t count, int64_t bytes,
                   int64_t extent, int64_t true_lb, int64_t true_extent, int commutative,
                   int predefined_op, int inplace, int regular, int op, int type) {
    memset(f, 0, sizeof *f);
    f->coll = coll;
    mg_facts_set(f, MG_FACT_P, p);
    mg_facts_set(f, MG_FACT_POW2, p > 0 && (p & (p - 1)) == 0);
    mg_facts_set(f, MG_FACT_ROOT, root);
    mg_facts_set(f, MG_FACT_COUNT, count);
    mg_facts_set(f, MG_FACT_BYTES, bytes);
    /* Reduce_scatter_block's count is one block; the vector it reduces holds p */
    mg_facts_set(f, MG_FACT_VECTOR_BYTES,
                 mg_coll_blocking(coll) == MG_CAT_REDUCE_SCATTER_BLOCK ? p * bytes : bytes);
    mg_facts_set(f, MG_FACT_TOTAL_BYTES, p * bytes);
    /* equal counts are all zero or none; unequal ones only whoever has them can tell */
    if (mg_coll_blocking(coll) != MG_CAT_REDUCE_SCATTER)
        mg_facts_set(f, MG_FACT_ZERO_COUNTS, 0);
    else if (regular)
        mg_facts_set(f, MG_FACT_ZERO_COUNTS, count == 0);
    mg_facts_set(f, MG_FACT_EXTENT, extent);
    mg_facts_set(f, MG_FACT_TRUE_LB, true_lb);
    mg_facts_set(f, MG_FACT_TRUE_EXTENT, true_extent);
    mg_facts_set(f, MG_FACT_COMMUTATIVE, commutative);
    mg_facts_set(f, MG_FACT_PREDEFINED_OP, predefined_op);
    if (inplace >= 0)
        mg_facts_set(f, MG_FACT_INPLACE, inplace);
    else
        f->maybe |= 1u << MG_FACT_INPLACE;
    mg_facts_set(f, MG_FACT_REGULAR, regular);
    mg_facts_set(f, MG_FACT_OP, op);
    mg_facts_set(f, MG_FACT_TYPE, type);
    mg_facts_set(f, MG_FACT_UNSIGNED, mg_type_code_unsigned(type));
}

static int compare(int64_t a, int cmp, int64_t b) {
    switch (cmp) {
    case MG_CMP_EQ:
        return a == b;
    case MG_CMP_NE:
        return a != b;
    case MG_CMP_LT:
        return a < b;
    case MG_CMP_LE:
        return a <= b;
    case MG_CMP_GT:
        return a > b;
    default:
        return a >= b;
    }
}

int mg_defect_match(const mg_defect *d, const mg_facts *f) {
    if (f->coll < 0 || f->coll >= 32 || !(d->colls >> f->coll & 1u)) return MG_MATCH_NO;
    int maybe = 0;
    for (int i = 0; i < d->nterms; i++) {
        const mg_dterm *t = &d->terms[i];
        uint32_t need = 1u << t->fact | (t->rhs_fact >= 0 ? 1u << t->rhs_fact : 0u);
        if ((f->known & need) != need) {
            if (((f->known | f->maybe) & need) != need) return MG_MATCH_NO; /* unknowable */
            maybe = 1;
            continue;
        }
        int holds;
        if (t->nvals) {
            holds = 0;
            for (int k = 0; k < t->nvals; k++) holds |= f->v[t->fact] == t->vals[k];
            if (t->cmp == MG_CMP_NE) holds = !holds;
        } else {
            holds = compare(f->v[t->fact], t->cmp, t->rhs_fact < 0 ? t->rhs : f->v[t->rhs_fact]);
        }
        if (!holds) return MG_MATCH_NO;
    }
    return maybe ? MG_MATCH_MAYBE : MG_MATCH_YES;
}

const mg_defect *mg_defect_find(const mg_defect_table *t, const unsigned char *applies,
                                const mg_facts *f, int *match) {
    for (int i = 0; i < t->n; i++) {
        if (applies && !applies[i]) continue;
        int m = mg_defect_match(&t->v[i], f);
        if (m != MG_MATCH_NO) {
            if (match) *match = m;
            return &t->v[i];
        }
    }
    if (match) *match = MG_MATCH_NO;
    return NULL;
}

void mg_defect_condition(const mg_defect *d, char *buf, size_t len) {
    static const char *const ops[] = {"=", "!=", "<", "<=", ">", ">="};
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < d->nterms && at < len; i++) {
        const mg_dterm *t = &d->terms[i];
        int n;
        if (t->nvals) {
            n = snprintf(buf + at, len - at, "%s%s%s", i ? " " : "", mg_fact_name(t->fact),
                         ops[t->cmp]);
            for (int k = 0; k < t->nvals && n >= 0 && at + (size_t)n < len; k++) {
                int64_t code = t->vals[k];
                const char *name = t->fact == MG_FACT_OP ? (code ? mg_op_names[code - 1] : "user")
                                                         : mg_type_names[code - 1];
                n += snprintf(buf + at + n, len - at - (size_t)n, "%s%s", k ? "|" : "", name);
            }
        } else if (t->rhs_fact >= 0)
            n = snprintf(buf + at, len - at, "%s%s%s%s", i ? " " : "", mg_fact_name(t->fact),
                         ops[t->cmp], mg_fact_name(t->rhs_fact));
        else
            n = snprintf(buf + at, len - at, "%s%s%s%lld", i ? " " : "", mg_fact_name(t->fact),
                         ops[t->cmp], (long long)t->rhs);
        if (n < 0) break;
        at += (size_t)n;
    }
}
