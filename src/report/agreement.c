/* How much two tune outputs agree on their profiles (`mpiguide compare`,
 * bench/decision_quality.sh): an entry is (collective, communicator size, measured message size) ->
 * the mock-up a profile selects there. Same choice, different choice, only in one; the Jaccard
 * index is the share of same choices among all entries either side has (1 when neither has any:
 * they agree that nothing needs tuning). Entries come from the profile files (profiles/, or a
 * directory of profiles alone: what online mode learned) at the sizes either side measured or
 * decided online, so ranges written differently but selecting the same compare equal. Pure. */
#include "outdir/outdir.h"
#include "catalog/catalog.h"
#include "report.h"
#include "profile/profile.h"
#include "util/diag.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmp_entry(const void *pa, const void *pb) {
    const mg_pentry *a = pa, *b = pb;
    if (a->coll != b->coll) return a->coll < b->coll ? -1 : 1;
    if (a->p != b->p) return a->p < b->p ? -1 : 1;
    return (a->msize > b->msize) - (a->msize < b->msize);
}

void mg_agreement_of(mg_pentry *a, int na, mg_pentry *b, int nb, mg_agreement *r, mg_pdiff *diff,
                     int *ndiff) {
    memset(r, 0, sizeof *r);
    if (ndiff) *ndiff = 0;
    qsort(a, (size_t)na, sizeof *a, cmp_entry);
    qsort(b, (size_t)nb, sizeof *b, cmp_entry);
    int i = 0, j = 0;
    while (i < na || j < nb) {
        int c = i == na ? 1 : j == nb ? -1 : cmp_entry(&a[i], &b[j]);
        const mg_pentry *k = c <= 0 ? &a[i] : &b[j];
        int alg_a = c <= 0 ? a[i].alg : -1, alg_b = c >= 0 ? b[j].alg : -1;
        if (c < 0)
            r->only_a++;
        else if (c > 0)
            r->only_b++;
        else if (alg_a == alg_b)
            r->same++;
        else
            r->different++;
        if (diff && alg_a != alg_b) diff[(*ndiff)++] = (mg_pdiff){*k, alg_a, alg_b};
        i += c <= 0;
        j += c >= 0;
    }
    int all = r->same + r->different + r->only_a + r->only_b;
    r->jaccard = all ? (double)r->same / all : 1.0;
}

/* Adds msize to the sorted, duplicate-free list v (capacity cap). */
static void add_size(long long *v, int *n, int cap, long long m) {
    for (int i = 0; i < *n; i++)
        if (v[i] == m) return;
    if (*n < cap) v[(*n)++] = m;
}

static void add_entry_size(long long *sizes, int *ns, const mg_pentry *x, int nx, int coll, int p) {
    for (int i = 0; i < nx; i++)
        if (x[i].coll == coll && x[i].p == p) add_size(sizes, ns, 4096, x[i].msize);
}

int mg_entries_of(const char *profdir, const mg_analysis *a, const mg_analysis *other,
                  const mg_pentry *extra, int nextra, mg_pentry **out, int *n) {
    *out = NULL;
    *n = 0;
    mg_profile_set set = {0};
    if (mg_profiles_load(profdir, &set, mg_diag_stderr, NULL) && !set.n) {
        mg_profile_set_free(&set);
        return -1;
    }
    int cap = 0, rc = 0;
    for (int k = 0; k < set.n && !rc; k++) {
        const mg_profile *p = &set.v[k];
        const char *cname = mg_coll_name(p->coll);
        /* the sizes either side measured of this collective, and where online mode decided */
        long long sizes[4096];
        int ns = 0;
        const mg_analysis *sides[2] = {a, other};
        for (int s = 0; s < 2; s++)
            for (int ci = 0; sides[s] && ci < sides[s]->ncolls; ci++)
                if (!strcmp(mg_name(sides[s], sides[s]->colls[ci].name), cname))
                    for (int pi = 0; pi < sides[s]->colls[ci].npoints; pi++)
                        add_size(sizes, &ns, 4096, sides[s]->colls[ci].points[pi].msize);
        add_entry_size(sizes, &ns, extra, nextra, p->coll, p->p);
        for (int i = 0; i < ns; i++) {
            int alg = mg_profile_select_linear(p, sizes[i]);
            if (alg < 0 || alg == p->coll) continue; /* the default is no entry */
            if (*n == cap) {
                cap = cap ? 2 * cap : 64;
                mg_pentry *nv = realloc(*out, sizeof *nv * (size_t)cap);
                if (!nv) {
                    rc = -1;
                    break;
                }
                *out = nv;
            }
            (*out)[(*n)++] = (mg_pentry){p->coll, p->p, sizes[i], alg};
        }
    }
    mg_profile_set_free(&set);
    return rc;
}

int mg_profiles_only(const char *dir) {
    char path[4200];
    struct stat st;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) return 0;
    mg_out_path(path, sizeof path, dir, MG_OUT_RAW);
    if (!stat(path, &st)) return 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    int raw = 0;
    for (struct dirent *e; (e = readdir(d)) && !raw;) {
        size_t len = strlen(e->d_name);
        raw = len > 4 && !strcmp(e->d_name + len - 4, ".dat");
    }
    closedir(d);
    if (raw) return 0;
    mg_profile_set set = {0};
    mg_profiles_load(dir, &set, NULL, NULL);
    int any = set.n > 0;
    mg_profile_set_free(&set);
    return any;
}

int mg_online_sizes(const char *profdir, mg_pentry **v, int *n) {
    mg_profile_set set = {0};
    int rc = 0;
    mg_profiles_load(profdir, &set, NULL, NULL);
    for (int k = 0; k < set.n && !rc; k++)
        for (int i = 0; i < set.v[k].nonline && !rc; i++) {
            mg_pentry *nv = realloc(*v, sizeof *nv * (size_t)(*n + 1));
            if (!nv) {
                rc = -1;
                break;
            }
            *v = nv;
            (*v)[(*n)++] = (mg_pentry){set.v[k].coll, set.v[k].p, set.v[k].online[i].msize, -1};
        }
    mg_profile_set_free(&set);
    return rc;
}

void mg_online_why(const char *profdir, const mg_pentry *e, char *buf, size_t len) {
    mg_profile_set set = {0};
    snprintf(buf, len, "not decided online here");
    mg_profiles_load(profdir, &set, NULL, NULL);
    for (int k = 0; k < set.n; k++) {
        const mg_profile *p = &set.v[k];
        if (p->coll != e->coll || p->p != e->p) continue;
        for (int i = 0; i < p->nonline; i++) {
            const mg_ponline *o = &p->online[i];
            int64_t lo = o->msize, hi = o->msize; /* the range the record lies in */
            for (int r = 0; r < p->nranges; r++)
                if (p->ranges[r].lo <= o->msize && o->msize <= p->ranges[r].hi)
                    lo = p->ranges[r].lo, hi = p->ranges[r].hi;
            if (e->msize < lo || e->msize > hi) continue;
            if (strcmp(o->alg, "default"))
                snprintf(buf, len, "online: %.2fx (95%% %.2f-%.2f) at %lld B in %llu calls",
                         o->speedup, o->ci_lo, o->ci_hi, (long long)o->msize,
                         (unsigned long long)o->calls);
            else
                snprintf(buf, len, "online: none of %d candidates faster at %lld B in %llu calls",
                         o->candidates, (long long)o->msize, (unsigned long long)o->calls);
        }
    }
    mg_profile_set_free(&set);
}
