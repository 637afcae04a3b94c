/* The flat selection table: lookups agree with a linear scan of every profile for random
 * profiles and sizes (including range edges), absent (collective, p) finds nothing, a damaged
 * block is refused, and several profiles of one (collective, p) measured with other datatypes
 * and ops form a chain in which each call finds its own. */
#include "check.h"
#include "catalog/catalog.h"
#include "profile/seltab.h"
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A profile with n disjoint sorted ranges and gaps, algorithms from a small set. */
static mg_profile random_profile(int coll, int p, int n) {
    mg_profile pr = {0};
    pr.coll = coll;
    pr.p = p;
    pr.nranges = n;
    pr.ranges = calloc((size_t)(n ? n : 1), sizeof *pr.ranges);
    int64_t at = (int64_t)(next() % 4);
    for (int i = 0; i < n; i++) {
        int64_t lo = at + (int64_t)(next() % 3), hi = lo + (int64_t)(next() % 5);
        pr.ranges[i] = (mg_prange){lo, hi, (int)(next() % 20), i + 1};
        at = hi + 1;
    }
    return pr;
}

int main(void) {
    mg_profile_set set = {0};
    int colls[] = {0, 2, 3, 6, 8, 10, 13, 14};
    int nprof = 0;
    set.v = calloc(64, sizeof *set.v);
    set.file = calloc(64, sizeof *set.file);
    set.cap = 64;
    for (int ci = 0; ci < 8; ci++)
        for (int p = 1; p <= 6; p++) {
            int n = (int)(next() % 300);
            if (ci == 3 && p == 2) n = 0; /* an empty profile selects nothing */
            set.v[nprof] = random_profile(colls[ci], p * 3, n);
            set.file[nprof] = strdup("mem");
            nprof++;
        }
    set.n = nprof;
    void *block = NULL;
    size_t bytes = 0;
    CHECK(mg_seltab_build(&set, &block, &bytes) == 0, "build");
    mg_selview v;
    CHECK(mg_seltab_view(block, bytes, &v) == 0, "view of a fresh block");
    long lookups = 0, mism = 0;
    for (int i = 0; i < set.n; i++) {
        const mg_profile *pr = &set.v[i];
        int found = mg_seltab_find(&v, pr->coll, pr->p);
        CHECK(found >= 0, "profile %d (coll %d p %d) found", i, pr->coll, pr->p);
        if (found < 0) continue;
        int64_t top = pr->nranges ? pr->ranges[pr->nranges - 1].hi + 3 : 10;
        for (int64_t m = 0; m <= top; m++) {
            int want = mg_profile_select_linear(pr, m), got = mg_seltab_search(&v, found, m);
            lookups++;
            if (want != got) {
                mism++;
                if (mism < 10)
                    CHECK(0, "coll %d p %d msize %lld: table %d, linear %d", pr->coll, pr->p,
                          (long long)m, got, want);
            }
        }
        CHECK(mg_seltab_search(&v, found, INT64_MAX) == mg_profile_select_linear(pr, INT64_MAX),
              "INT64_MAX");
    }
    CHECK(mism == 0, "%ld of %ld lookups differ", mism, lookups);
    CHECK(mg_seltab_find(&v, 0, 5) < 0 && mg_seltab_find(&v, 1, 3) < 0, "absent pairs");

    /* damaged blocks */
    CHECK(mg_seltab_view(block, bytes - 8, &v) != 0, "short block refused");
    char *copy = malloc(bytes);
    memcpy(copy, block, bytes);
    copy[0] ^= 1;
    CHECK(mg_seltab_view(copy, bytes, &v) != 0, "bad magic refused");
    free(copy);
    CHECK(mg_seltab_view(NULL, 0, &v) != 0, "NULL refused");

    /* what each profile was measured with: element size and, for reductions, the op class */
    struct {
        const char *coll, *datatype, *op;
        int esize, opclass;
    } types[] = {
        {"MPI_Allreduce", "MPI_DOUBLE", "MPI_SUM", 8, MG_OPC_ARITH},
        {"MPI_Allreduce", "MPI_BYTE", "MPI_BOR", 1, MG_OPC_BIT},
        {"MPI_Reduce", "MPI_INT", "MPI_MAX", 4, MG_OPC_MINMAX},
        {"MPI_Bcast", "MPI_DOUBLE", "MPI_SUM", 8, 0},   /* not a reduction: no op class */
        {"MPI_Allreduce", "", "", 0, 0},                /* hand-written: any call */
        {"MPI_Gatherv", "MPI_INT", "", 0, 0},           /* size by p only: any datatype */
        {"MPI_Allgather", "MPI_LONG_DOUBLE", "", 0, 0}, /* not a datatype the tools know */
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        mg_profile one = random_profile(mg_coll_lookup(types[i].coll), 4, 3);
        snprintf(one.datatype, sizeof one.datatype, "%s", types[i].datatype);
        snprintf(one.operation, sizeof one.operation, "%s", types[i].op);
        mg_profile_set s1 = {1, 1, &one, NULL};
        void *b1 = NULL;
        size_t n1 = 0;
        mg_selview v1;
        CHECK(mg_seltab_build(&s1, &b1, &n1) == 0 && mg_seltab_view(b1, n1, &v1) == 0, "build");
        CHECK(v1.prof[0].esize == types[i].esize && v1.prof[0].opclass == types[i].opclass,
              "%s %s %s: esize %d opclass %d, want %d %d", types[i].coll, types[i].datatype,
              types[i].op, v1.prof[0].esize, v1.prof[0].opclass, types[i].esize, types[i].opclass);
        mg_seltab_match_size(b1); /* MPIGUIDE_MATCH=size */
        CHECK(mg_seltab_view(b1, n1, &v1) == 0 && !v1.prof[0].esize && !v1.prof[0].opclass,
              "%s: MPIGUIDE_MATCH=size accepts any datatype and op", types[i].coll);
        free(b1);
        free(one.ranges);
    }

    /* Several profiles of MPI_Allreduce at p = 4: MPI_DOUBLE/MPI_SUM and MPI_INT/MPI_MAX, and
     * one naming neither, loaded first; MPI_Bcast at p = 4 beside them. Each call's type finds
     * its own profile, the one naming neither takes the rest, and MPIGUIDE_MATCH=size takes the
     * chain's first. Without it, a third type runs the default (no profile). */
    {
        struct {
            const char *coll, *datatype, *op;
        } chain[] = {{"MPI_Allreduce", "", ""},
                     {"MPI_Allreduce", "MPI_DOUBLE", "MPI_SUM"},
                     {"MPI_Bcast", "MPI_CHAR", ""},
                     {"MPI_Allreduce", "MPI_INT", "MPI_MAX"}};
        mg_profile cp[4];
        for (int i = 0; i < 4; i++) {
            cp[i] = random_profile(mg_coll_lookup(chain[i].coll), 4, 3);
            snprintf(cp[i].datatype, sizeof cp[i].datatype, "%s", chain[i].datatype);
            snprintf(cp[i].operation, sizeof cp[i].operation, "%s", chain[i].op);
        }
        int ar = mg_coll_lookup("MPI_Allreduce");
        for (int with_any = 0; with_any < 2; with_any++) {
            mg_profile_set cs = {with_any ? 4 : 3, 4, with_any ? cp : cp + 1, NULL};
            int off = with_any ? 0 : 1; /* set index -> cp index */
            void *cb = NULL;
            size_t cn = 0;
            mg_selview cv;
            CHECK(mg_seltab_build(&cs, &cb, &cn) == 0 && mg_seltab_view(cb, cn, &cv) == 0,
                  "chain: build");
            int head = mg_seltab_find(&cv, ar, 4);
            CHECK(head == 1 - off, "chain: the first is the MPI_DOUBLE/MPI_SUM profile, got %d",
                  head);
            int dbl = mg_seltab_match(&cv, head, 8, MG_OPC_ARITH);
            int imax = mg_seltab_match(&cv, head, 4, MG_OPC_MINMAX);
            int isum = mg_seltab_match(&cv, head, 4, MG_OPC_ARITH);
            int fmax = mg_seltab_match(&cv, head, 8, MG_OPC_MINMAX);
            CHECK(dbl == 1 - off && imax == 3 - off, "chain: each type its own (%d %d)", dbl, imax);
            CHECK(isum == (with_any ? 0 : -1) && fmax == isum, "chain: a third type %s, got %d %d",
                  with_any ? "takes the profile naming neither" : "finds none", isum, fmax);
            CHECK(mg_seltab_match(&cv, mg_seltab_find(&cv, mg_coll_lookup("MPI_Bcast"), 4), 1, 0) ==
                      2 - off,
                  "chain: MPI_Bcast is its own");
            /* each profile keeps its own ranges: the search of each agrees with its linear scan */
            for (int64_t m = 0; m < 30; m++)
                CHECK(mg_seltab_search(&cv, imax, m) == mg_profile_select_linear(&cp[3], m) &&
                          mg_seltab_search(&cv, dbl, m) == mg_profile_select_linear(&cp[1], m),
                      "chain: ranges at %lld", (long long)m);
            /* a chain that loops, or leaves its (coll, p), is refused */
            char *bad = malloc(cn);
            memcpy(bad, cb, cn);
            mg_selprof *bp =
                (mg_selprof *)(uintptr_t)((const char *)cv.prof - (const char *)cb + bad);
            bp[imax].next = head;
            mg_selview bv;
            CHECK(mg_seltab_view(bad, cn, &bv) != 0, "chain: a loop is refused");
            memcpy(bad, cb, cn);
            bp[head].next = 2 - off;
            CHECK(mg_seltab_view(bad, cn, &bv) != 0, "chain: another (coll, p) is refused");
            free(bad);
            mg_seltab_match_size(cb);
            CHECK(mg_seltab_view(cb, cn, &cv) == 0 &&
                      mg_seltab_match(&cv, head, 4, MG_OPC_MINMAX) == head,
                  "chain: MPIGUIDE_MATCH=size takes the first");
            free(cb);
        }
        for (int i = 0; i < 4; i++) free(cp[i].ranges);
    }

    /* no profiles at all */
    mg_profile_set none = {0};
    void *b2 = NULL;
    size_t n2 = 0;
    CHECK(mg_seltab_build(&none, &b2, &n2) == 0 && mg_seltab_view(b2, n2, &v) == 0, "empty");
    CHECK(mg_seltab_find(&v, 0, 4) < 0, "empty table finds nothing");
    free(b2);
    free(block);
    mg_profile_set_free(&set);
    return DONE();
}
