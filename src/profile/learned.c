/* The profiles online mode learned (MPIGUIDE_PROFILES_OUT): the ranges of the profile a run
 * started from, the buckets it decided (less those ranges), and a `#@online=` line per bucket,
 * rendered by write.c, so the next run starts from them and `profile check` reads them. Pure. */
#include "profile.h"
#include "util/sbuf.h"
#include <stdlib.h>
#include <string.h>

static int by_lo(const void *a, const void *b) {
    const mg_profile_wrange *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Appends [lo, hi] less the kept ranges to r (room for nkept + 1 more); returns the count. */
static int pieces(int64_t lo, int64_t hi, const char *alg, const mg_profile_wrange *kept, int nkept,
                  mg_profile_wrange *r, int n) {
    for (int i = 0; i < nkept && lo <= hi; i++) {
        if (kept[i].hi < lo || kept[i].lo > hi) continue;
        if (kept[i].lo > lo) r[n++] = (mg_profile_wrange){lo, kept[i].lo - 1, alg};
        if (kept[i].hi >= hi) return n;
        lo = kept[i].hi + 1;
    }
    if (lo <= hi) r[n++] = (mg_profile_wrange){lo, hi, alg};
    return n;
}

char *mg_profile_learned(const char *coll, int p, const mg_profile_kv *prov, int nprov,
                         const mg_profile_wrange *kept, int nkept, const mg_learned *l, int nl) {
    size_t cap = (size_t)nkept + (size_t)nl * ((size_t)nkept + 1) + 1;
    mg_profile_wrange *r = malloc(cap * sizeof *r);
    if (!r) return NULL;
    int n = 0;
    for (int i = 0; i < nkept; i++) r[n++] = kept[i];
    mg_sbuf lines = {0};
    for (int i = 0; i < nl; i++) {
        int first = n;
        n = pieces(l[i].lo, l[i].hi, l[i].alg, kept, nkept, r, n);
        int held = 0; /* the line's size must be one this entry's ranges hold */
        for (int j = first; j < n; j++) held |= r[j].lo <= l[i].msize && l[i].msize <= r[j].hi;
        if (!held) continue;
        mg_sbuf_printf(&lines,
                       "#@online=%lld %s calls=%llu explored=%llu cost_s=%.6g candidates=%d",
                       (long long)l[i].msize, l[i].alg, (unsigned long long)l[i].calls,
                       (unsigned long long)l[i].explored, l[i].cost_s, l[i].candidates);
        if (strcmp(l[i].alg, "default"))
            mg_sbuf_printf(&lines, " speedup=%.6g ci95=%.6g..%.6g", l[i].speedup, l[i].ci_lo,
                           l[i].ci_hi);
        mg_sbuf_printf(&lines, "\n");
    }
    qsort(r, (size_t)n, sizeof *r, by_lo);
    int failed = lines.failed;
    char *comment = mg_sbuf_take(&lines);
    if (failed) {
        free(r);
        return NULL;
    }
    char *text = mg_profile_render(coll, p, prov, nprov, comment, r, n);
    free(comment);
    free(r);
    return text;
}
