/* The naming rule of library algorithms and the table of the ones this process knows: filled by
 * discovery at MPI_Init (runnable entries), and by inputs that name an algorithm discovery did
 * not find (named-only entries, which the library resolves to the default). Pure. */
#include "algid.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

static struct {
    int based, base, n;
    mg_libalg v[MG_LIBALG_MAX];
    char off[512];
    int is_off;
    char mpi[16];
} T = {0, 0, 0, {{0}}, "", 0, ""};

/* Before mg_libalg_reset (the tool without MPI) ids follow the catalog's names. */
static int base(void) {
    return T.based ? T.base : mg_nalg_names;
}

int mg_libalg_make_name(int coll, const char *item, char *out, size_t len) {
    const char *s = mg_coll_short(coll);
    if (!s || !item || !*item) return -1;
    int n = snprintf(out, len, "%s_lib_", s);
    if (n < 0 || (size_t)n >= len) return -1;
    size_t at = (size_t)n;
    for (const char *c = item; *c; c++) {
        if (at + 1 >= len) return -1;
        unsigned char ch = (unsigned char)tolower((unsigned char)*c);
        out[at++] = (char)(isalnum(ch) || ch == '_' ? ch : '_');
    }
    out[at] = 0;
    return 0;
}

int mg_libalg_name_coll(const char *name) {
    const char *m = name ? strstr(name, "_lib_") : NULL;
    if (!m || !m[5]) return -1;
    for (const char *c = m + 5; *c; c++)
        if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_')) return -1;
    size_t plen = (size_t)(m - name);
    for (int c = 0; c < mg_ncolls; c++) {
        const char *s = mg_coll_short(c);
        if (strlen(s) == plen && !strncmp(s, name, plen)) return c;
    }
    return -1;
}

/* The library's own selection, not an algorithm: "auto" (MPICH), "ignore" (Open MPI), and
 * MPICH's "sched_auto" of the nonblocking collectives (the selection among its schedule-based
 * algorithms, which MPICH 4.0.2 cannot run when forced: an assertion in mpir_coll.c aborts the
 * job for every nonblocking collective, docs/library-algorithms.md). */
int mg_libalg_item_is_default(const char *item) {
    return !strcmp(item, "auto") || !strcmp(item, "ignore") || !strcmp(item, "sched_auto");
}

void mg_libalg_reset(int first) {
    T.based = 1;
    T.base = first;
    T.n = 0;
    T.is_off = 0;
    T.off[0] = 0;
    T.mpi[0] = 0;
}

int mg_libalg_find(int coll, const char *name) {
    for (int i = 0; name && i < T.n; i++)
        if (T.v[i].coll == coll && !strcmp(T.v[i].name, name)) return T.v[i].id;
    return -1;
}

int mg_libalg_add(const mg_libalg *e) {
    if (T.n >= MG_LIBALG_MAX || mg_libalg_find(e->coll, e->name) >= 0) return -1;
    mg_libalg c = *e;
    c.id = base() + T.n;
    if (c.runnable)
        snprintf(c.guideline, sizeof c.guideline, "library: %s=%d (%s, %s)", e->var, e->value,
                 e->item, e->mpi);
    else
        snprintf(c.guideline, sizeof c.guideline, "library: not available in this process");
    T.v[T.n++] = c;
    return c.id;
}

int mg_libalg_nrunnable(void) {
    int n = 0;
    while (n < T.n && T.v[n].runnable) n++;
    return n;
}

int mg_libalg_intern(int coll, const char *name) {
    int id = mg_libalg_find(coll, name);
    if (id >= 0) return id;
    if (mg_libalg_name_coll(name) != coll || strlen(name) >= MG_LIBALG_NAME) return -1;
    mg_libalg e = {0};
    e.coll = coll;
    snprintf(e.name, sizeof e.name, "%s", name);
    snprintf(e.item, sizeof e.item, "%s", strstr(name, "_lib_") + 5);
    return mg_libalg_add(&e);
}

const mg_libalg *mg_libalg_by_id(int id) {
    int i = id - base();
    return i >= 0 && i < T.n ? &T.v[i] : NULL;
}

int mg_libalg_count(void) {
    return T.n;
}

const mg_libalg *mg_libalg_at(int i) {
    return i >= 0 && i < T.n ? &T.v[i] : NULL;
}

int mg_libalg_first_id(void) {
    return base();
}

int mg_libalg_runnable(int id) {
    const mg_libalg *e = mg_libalg_by_id(id);
    return e && e->runnable;
}

const char *mg_libalg_list(int coll, char *buf, size_t len) {
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < T.n && at + 1 < len; i++) {
        if (T.v[i].coll != coll || !T.v[i].runnable) continue;
        int n = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", T.v[i].name);
        if (n < 0) break;
        at += (size_t)n;
    }
    if (!buf[0]) snprintf(buf, len, "none");
    return buf;
}

void mg_libalg_set_off(const char *why) {
    T.is_off = why != NULL;
    snprintf(T.off, sizeof T.off, "%s", why ? why : "");
}

const char *mg_libalg_off(void) {
    return T.is_off ? T.off : NULL;
}

void mg_libalg_set_mpi(const char *mpi) {
    snprintf(T.mpi, sizeof T.mpi, "%s", mpi ? mpi : "");
}

const char *mg_libalg_mpi(void) {
    return T.mpi;
}

/* Names outside the static tables: the catalog asks here (catalog.h). */
const char *mg_lib_alg_name(int alg) {
    const mg_libalg *e = mg_libalg_by_id(alg);
    return e ? e->name : NULL;
}

int mg_lib_alg_coll(int alg) {
    const mg_libalg *e = mg_libalg_by_id(alg);
    return e ? e->coll : -1;
}

int mg_alg_lookup(int coll, const char *name) {
    for (int i = 0; name && i < mg_nalg_names; i++)
        if (mg_alg_table[i].coll == coll && !strcmp(mg_alg_table[i].name, name)) return i;
    return name ? mg_libalg_find(coll, name) : -1;
}
