/* How much two tune outputs agree on their profiles (`mpiguide compare`,
 * bench/decision_quality.sh): an entry is (collective, communicator size, measured message size) ->
 * the mock-up a profile selects there. Same choice, different choice, only in one; the Jaccard
 * index is the share of same choices among all entries either side has (1 when neither has any:
 * they agree that nothing needs tuning). Entries come from the profile files (profiles/) at the
 * sizes either side measured, so ranges written differently but selecting the same compare equal.
 * Pure. */
#include "outdir/outdir.h"
#include "catalog/catalog.h"
#include "report.h"
#include "profile/profile.h"
#include "util/diag.h"
#include <stdlib.h>
#include <string.h>

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

int mg_entries_of(const char *dir, const mg_analysis *a, const mg_analysis *other, mg_pentry **out,
                  int *n) {
    *out = NULL;
    *n = 0;
    char path[4200];
    mg_out_path(path, sizeof path, dir, MG_OUT_PROFILES);
    mg_profile_set set = {0};
    if (mg_profiles_load(path, &set, mg_diag_stderr, NULL) && !set.n) {
        mg_profile_set_free(&set);
        return -1;
    }
    int cap = 0, rc = 0;
    for (int k = 0; k < set.n && !rc; k++) {
        const mg_profile *p = &set.v[k];
        const char *cname = mg_coll_name(p->coll);
        /* the sizes either side measured of this collective */
        long long sizes[4096];
        int ns = 0;
        const mg_analysis *sides[2] = {a, other};
        for (int s = 0; s < 2; s++)
            for (int ci = 0; sides[s] && ci < sides[s]->ncolls; ci++)
                if (!strcmp(mg_name(sides[s], sides[s]->colls[ci].name), cname))
                    for (int pi = 0; pi < sides[s]->colls[ci].npoints; pi++)
                        add_size(sizes, &ns, 4096, sides[s]->colls[ci].points[pi].msize);
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
