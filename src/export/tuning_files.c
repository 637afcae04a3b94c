/* The writers of `mpiguide export` (export.h): Open MPI's classic dynamic rules file and MPICH's
 * collective-selection JSON. Each library measures a call's size its own way; the factors below
 * turn mpiguide's message size (one rank's block for the rooted and the all-to-all collectives,
 * docs/dev/interfaces.md section 1) into it, and sizes between the profile's ranges keep the
 * library's own decision, so the exported file selects exactly what the profile selects. */
#include "tuning_files.h"
#include "catalog/catalog.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growing text ---- */
typedef struct sb {
    char *s;
    size_t n, cap;
    int bad;
} sb;

static void sb_add(sb *b, const char *t, size_t n) {
    if (b->bad) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n + 1) cap *= 2;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->bad = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->n, t, n);
    b->n += n;
    b->s[b->n] = 0;
}

static void sb_str(sb *b, const char *t) {
    sb_add(b, t, strlen(t));
}

static void sb_printf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sb *b, const char *fmt, ...) {
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0) sb_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static char *sb_done(sb *b, char *why, size_t len) {
    if (b->bad || !b->s) {
        free(b->s);
        snprintf(why, len, "out of memory");
        return NULL;
    }
    return b->s;
}

/* ---- Open MPI ---- */

/* Open MPI's numbers of the collectives in rules files (its COLLTYPE enumeration) and how its
 * decision measures a call: the whole buffer of all ranks (block x p) for these five. */
static const struct {
    const char *coll;
    int id, times_p;
} ompi_colls[] = {
    {"allgather", 0, 1},       {"allreduce", 2, 0},
    {"alltoall", 3, 1},        {"bcast", 7, 0},
    {"gather", 9, 1},          {"reduce", 11, 0},
    {"reduce_scatter", 12, 0}, {"reduce_scatter_block", 13, 1},
    {"scan", 14, 0},           {"scatter", 15, 1},
};
#define NOMPI (sizeof ompi_colls / sizeof ompi_colls[0])

static int ompi_index(int coll) {
    const char *s = mg_coll_short(coll);
    for (size_t i = 0; s && i < NOMPI; i++)
        if (!strcmp(ompi_colls[i].coll, s)) return (int)i;
    return -1;
}

int mg_export_ompi_has(int coll) {
    return ompi_index(coll) >= 0;
}

static int by_coll_p(const void *a, const void *b) {
    const mg_xentry *x = a, *y = b;
    int i = ompi_index(x->coll), j = ompi_index(y->coll);
    if (i != j) return ompi_colls[i].id - ompi_colls[j].id;
    return x->p - y->p;
}

/* One communicator size's message rules: (lo, algorithm) per range, and (hi + 1, 0) where the
 * next range does not start right after it (0: Open MPI's own decision). Open MPI 4.1 drops a
 * collective's rules unless the first one starts at size 0, hence a leading (0, 0). Counted in a
 * first pass (print 0), written in a second. */
static int ompi_rules_of(const mg_xentry *e, int64_t k, sb *out, int print) {
    int n = 0;
    if (print) sb_printf(out, "%-20d # message sizes\n", ompi_rules_of(e, k, out, 0));
    if (e->n == 0 || e->r[0].lo != 0) {
        n++;
        if (print) sb_printf(out, "0 0 0 0\n");
    }
    for (int i = 0; i < e->n; i++) {
        const mg_xrange *r = &e->r[i];
        if (r->lo > INT64_MAX / k) break;
        n++;
        if (print)
            sb_printf(out, "%lld %d %d %d\n", (long long)(r->lo * k), r->value, r->fanout,
                      r->segsize);
        int next_adjacent = i + 1 < e->n && e->r[i + 1].lo == r->hi + 1;
        if (r->hi < INT64_MAX / k - 1 && !next_adjacent) {
            n++;
            if (print) sb_printf(out, "%lld 0 0 0\n", (long long)((r->hi + 1) * k));
        }
    }
    return n;
}

char *mg_export_ompi_rules(const mg_xentry *e0, int n, const char *source, char *why, size_t len) {
    sb out = {0};
    mg_xentry *e = malloc(sizeof *e * (size_t)(n ? n : 1));
    if (!e) return sb_done(&out, why, len);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (ompi_index(e0[i].coll) >= 0 && e0[i].n > 0) e[m++] = e0[i];
    qsort(e, (size_t)m, sizeof *e, by_coll_p);
    /* Open MPI's reader skips characters that cannot start a number, digits in comments
     * included, so no comment here holds a digit (and `source`, a path, is not written). */
    (void)source;
    sb_printf(&out, "# Open MPI coll/tuned dynamic rules written by mpiguide export\n"
                    "# run with OMPI_MCA_coll_tuned_use_dynamic_rules=true and\n"
                    "# OMPI_MCA_coll_tuned_dynamic_rules_filename set to this file\n"
                    "# a rule holds from its message size (bytes as Open MPI counts them) to the\n"
                    "# next; algorithm zero is Open MPI's own decision\n");
    int ncoll = 0;
    for (int i = 0; i < m; i++) ncoll += i == 0 || e[i].coll != e[i - 1].coll;
    sb_printf(&out, "%-20d # collectives\n", ncoll);
    for (int i = 0; i < m;) {
        int j = i;
        while (j < m && e[j].coll == e[i].coll) j++;
        int x = ompi_index(e[i].coll), sizes = 0;
        const char *name = mg_coll_name(e[i].coll);
        for (int k = i; k < j; k++) sizes += 1 + (k + 1 == j || e[k + 1].p != e[k].p + 1);
        sb_printf(&out, "%-20d # %s\n%-20d # communicator sizes\n", ompi_colls[x].id,
                  name ? name : "?", sizes);
        for (int k = i; k < j; k++) {
            sb_printf(&out, "%-20d # communicator size\n", e[k].p);
            ompi_rules_of(&e[k], ompi_colls[x].times_p ? e[k].p : 1, &out, 1);
            /* a rule holds up to the next listed size: this one stops Open MPI from using the
             * profile for larger communicators */
            if (k + 1 == j || e[k + 1].p != e[k].p + 1)
                sb_printf(&out, "%-20d # communicator size: Open MPI's own decision\n0\n",
                          e[k].p + 1);
        }
        i = j;
    }
    free(e);
    return sb_done(&out, why, len);
}

/* ---- MPICH ---- */

/* MPICH's selection conditions on message size (src/mpi/coll/src/csel.c of MPICH 4): the
 * average size per rank (count x type size, or one block of Alltoall) or the total over all
 * ranks' blocks. */
static const struct {
    const char *coll, *key;
    int times_p;
} mpich_sizes[] = {
    {"allreduce", "avg_msg_size", 0},
    {"bcast", "avg_msg_size", 0},
    {"reduce", "avg_msg_size", 0},
    {"alltoall", "avg_msg_size", 0},
    {"allgather", "total_msg_size", 1},
    {"gather", "total_msg_size", 1},
    {"scatter", "total_msg_size", 1},
    {"reduce_scatter", "total_msg_size", 0},
    {"reduce_scatter_block", "total_msg_size", 1},
};

const char *mg_export_mpich_size_key(int coll, int *times_p) {
    const char *s = mg_coll_short(coll);
    for (size_t i = 0; s && i < sizeof mpich_sizes / sizeof mpich_sizes[0]; i++)
        if (!strcmp(mpich_sizes[i].coll, s)) {
            if (times_p) *times_p = mpich_sizes[i].times_p;
            return mpich_sizes[i].key;
        }
    return NULL;
}

int mg_export_mpich_find_base(const char *b, size_t n, size_t *off, size_t *len) {
    static const char head[] = "{\"collective=";
    for (size_t i = 0; i + sizeof head - 1 <= n; i++) {
        if (memcmp(b + i, head, sizeof head - 1)) continue;
        size_t e = i;
        while (e < n && b[e]) e++;
        /* the MPIR-level selection names algorithm=MPIR_ containers (the device's names
         * compositions, the shared-memory one MPIDI_POSIX algorithms) */
        int mpir = 0;
        for (size_t k = i; k + 16 <= e && !mpir; k++) mpir = !memcmp(b + k, "algorithm=MPIR_", 15);
        if (mpir && mg_json_valid(b + i, e - i)) {
            *off = i;
            *len = e - i;
            return 0;
        }
        i = e;
    }
    return -1;
}

static int has_string(const char *b, size_t n, const char *s) {
    size_t l = strlen(s);
    for (size_t i = 0; b && i + l + 1 <= n; i++)
        if (!memcmp(b + i, s, l) && !b[i + l] && (i == 0 || !b[i - 1])) return 1;
    return 0;
}

void mg_export_mpich_container(int coll, const char *item, const char *bytes, size_t n, char *out,
                               size_t len) {
    char intra[160], allcomm[160];
    const char *name = mg_coll_name(coll) + 4; /* "Allreduce" */
    snprintf(intra, sizeof intra, "MPIR_%s_intra_%s", name, item);
    snprintf(allcomm, sizeof allcomm, "MPIR_%s_allcomm_%s", name, item);
    int all;
    if (bytes)
        all = !has_string(bytes, n, intra) && has_string(bytes, n, allcomm);
    else
        all = !strcmp(item, "nb") || (mg_coll_is_v(coll) && !strcmp(item, "linear"));
    snprintf(out, len, "%s", all ? allcomm : intra);
}

static void put_span(sb *o, const char *t, mg_json_span s) {
    sb_add(o, t + s.off, s.len);
}

static void leaf(sb *o, const char *container) {
    sb_printf(o, "{\"algorithm=%s\":{}}", container);
}

/* The size conditions of one communicator size: below a range the base's own choice, in it
 * the library algorithm, after the last one the base's again. */
static void size_tree(sb *o, const mg_xentry *e, const char *key, int64_t k, const char *t,
                      mg_json_span dflt) {
    if (!key) { /* no size condition: only an all-sizes range can be expressed (checked) */
        leaf(o, e->r[0].container);
        return;
    }
    sb_str(o, "{");
    int first = 1;
    for (int i = 0; i < e->n; i++) {
        const mg_xrange *r = &e->r[i];
        if (r->lo > INT64_MAX / k) break;
        if (r->lo > 0 && (i == 0 || e->r[i - 1].hi + 1 != r->lo)) {
            sb_printf(o, "%s\"%s<%lld\":", first ? "" : ",", key, (long long)(r->lo * k));
            put_span(o, t, dflt);
            first = 0;
        }
        if (r->hi > INT64_MAX / k) {
            sb_printf(o, "%s\"%s=any\":", first ? "" : ",", key);
            leaf(o, r->container);
            sb_str(o, "}");
            return;
        }
        sb_printf(o, "%s\"%s<=%lld\":", first ? "" : ",", key, (long long)(r->hi * k));
        leaf(o, r->container);
        first = 0;
    }
    sb_printf(o, "%s\"%s=any\":", first ? "" : ",", key);
    put_span(o, t, dflt);
    sb_str(o, "}");
}

static int by_coll_p_mpich(const void *a, const void *b) {
    const mg_xentry *x = a, *y = b;
    return x->coll != y->coll ? x->coll - y->coll : x->p - y->p;
}

static char *mpich_json(const mg_xentry *e, int n, const char *t, size_t blen, char *why,
                        size_t len);

char *mg_export_mpich_json(const mg_xentry *e0, int n, const char *t, size_t blen, char *why,
                           size_t len) {
    mg_xentry *e = malloc(sizeof *e * (size_t)(n ? n : 1));
    if (!e) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    if (n) memcpy(e, e0, sizeof *e * (size_t)n);
    qsort(e, (size_t)n, sizeof *e, by_coll_p_mpich);
    char *text = mpich_json(e, n, t, blen, why, len);
    free(e);
    return text;
}

static char *mpich_json(const mg_xentry *e, int n, const char *t, size_t blen, char *why,
                        size_t len) {
    sb o = {0};
    if (!mg_json_valid(t, blen)) {
        snprintf(why, len, "the base selection is not a JSON object");
        return NULL;
    }
    size_t start = 0;
    while (t[start] != '{') start++;
    mg_json_span root = {start, blen - start};
    while (root.len && t[root.off + root.len - 1] != '}') root.len--;
    int nm = mg_json_members(t, root, NULL, 0);
    mg_json_member *m = nm > 0 ? malloc(sizeof *m * (size_t)nm) : NULL;
    if (nm <= 0 || !m) {
        free(m);
        snprintf(why, len, nm <= 0 ? "the base selection has no collectives" : "out of memory");
        return NULL;
    }
    mg_json_members(t, root, m, nm);
    /* every profiled collective must be in the base: its subtree is the fallback */
    for (int i = 0; i < n; i++) {
        char key[96];
        snprintf(key, sizeof key, "collective=%s", mg_coll_short(e[i].coll));
        int found = 0;
        for (int k = 0; k < nm && !found; k++) found = mg_json_key_is(t, m[k].key, key);
        if (!found) {
            snprintf(why, len, "the base selection has no \"%s\"", key);
            free(m);
            return NULL;
        }
    }
    sb_str(&o, "{");
    for (int k = 0; k < nm; k++) {
        if (k) sb_str(&o, ",\n");
        sb_str(&o, "\"");
        put_span(&o, t, m[k].key);
        sb_str(&o, "\":");
        int coll = -1;
        for (int i = 0; i < n && coll < 0; i++) {
            char key[96];
            snprintf(key, sizeof key, "collective=%s", mg_coll_short(e[i].coll));
            if (mg_json_key_is(t, m[k].key, key)) coll = e[i].coll;
        }
        if (coll < 0) {
            put_span(&o, t, m[k].val);
            continue;
        }
        /* the base's subtree for intra- and for intercommunicators */
        mg_json_member sub[16];
        int ns = mg_json_members(t, m[k].val, sub, 16);
        mg_json_span intra = m[k].val, inter = m[k].val;
        for (int s = 0; s < ns && s < 16; s++) {
            if (mg_json_key_is(t, sub[s].key, "comm_type=intra")) intra = sub[s].val;
            if (mg_json_key_is(t, sub[s].key, "comm_type=inter")) inter = sub[s].val;
        }
        int times_p = 0;
        const char *key = mg_export_mpich_size_key(coll, &times_p);
        sb_str(&o, "{\"comm_type=intra\":{");
        int prev = 0;
        for (int i = 0; i < n; i++) {
            if (e[i].coll != coll || e[i].n == 0) continue;
            if (e[i].p - 1 > prev) {
                sb_printf(&o, "\"comm_size<=%d\":", e[i].p - 1);
                put_span(&o, t, intra);
                sb_str(&o, ",");
            }
            sb_printf(&o, "\"comm_size<=%d\":", e[i].p);
            size_tree(&o, &e[i], key, times_p ? e[i].p : 1, t, intra);
            sb_str(&o, ",");
            prev = e[i].p;
        }
        sb_str(&o, "\"comm_size=any\":");
        put_span(&o, t, intra);
        sb_str(&o, "},\"comm_type=inter\":");
        put_span(&o, t, inter);
        sb_str(&o, "}");
    }
    sb_str(&o, "}\n");
    free(m);
    return sb_done(&o, why, len);
}
