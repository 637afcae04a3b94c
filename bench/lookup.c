/* Selection lookup micro-benchmark (no MPI): tuned mode's per-call selection, i.e. the
 * O(1) profile lookup for (collective, communicator size) plus the binary search over a
 * profile of 10,000 ranges, timed over random message sizes (half inside a range, half in a
 * gap) and, for comparison, the linear scan of the original tuning library. Target: at most
 * 50 ns per selection. Built and run by bench/lookup.sh. */
#include "catalog/catalog.h"
#include "profile/seltab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RANGES  10000
#define SIZES   4096
#define LOOKUPS 4000000
#define RUNS    11

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); /* CPU time: other jobs do not count */
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void) {
    /* 40 profiles (8 collectives x 5 communicator sizes), one of them with 10,000 ranges */
    mg_profile_set set = {0};
    set.cap = 64;
    set.v = calloc((size_t)set.cap, sizeof *set.v);
    set.file = calloc((size_t)set.cap, sizeof *set.file);
    int colls[] = {0, 2, 3, 6, 8, 10, 13, 14};
    for (int c = 0; c < 8; c++)
        for (int k = 0; k < 5; k++) {
            mg_profile *p = &set.v[set.n];
            p->coll = colls[c];
            p->p = 2 << k;
            p->nranges = (c == 2 && k == 2) ? RANGES : 16;
            p->ranges = calloc((size_t)p->nranges, sizeof *p->ranges);
            for (int i = 0; i < p->nranges; i++)
                p->ranges[i] = (mg_prange){(int64_t)i * 10, (int64_t)i * 10 + 4, 4 + i % 3, i};
            set.file[set.n++] = strdup("bench");
        }
    void *block;
    size_t bytes;
    mg_selview v;
    if (mg_seltab_build(&set, &block, &bytes) || mg_seltab_view(block, bytes, &v)) return 1;
    const mg_profile *big = NULL;
    for (int i = 0; i < set.n; i++)
        if (set.v[i].nranges == RANGES) big = &set.v[i];
    int64_t sizes[SIZES];
    srand(12345);
    for (int i = 0; i < SIZES; i++) sizes[i] = (int64_t)(rand() % (RANGES * 10));
    /* correctness first: the table agrees with a linear scan */
    for (int i = 0; i < SIZES; i++)
        if (mg_seltab_search(&v, mg_seltab_find(&v, big->coll, big->p), sizes[i]) !=
            mg_profile_select_linear(big, sizes[i]))
            return fprintf(stderr, "lookup: mismatch at msize %lld\n", (long long)sizes[i]), 1;
    double t[RUNS];
    long sink = 0;
    for (int r = 0; r < RUNS; r++) {
        double t0 = now();
        for (int i = 0; i < LOOKUPS; i++) {
            int prof = mg_seltab_find(&v, big->coll, big->p);
            sink += mg_seltab_search(&v, prof, sizes[i & (SIZES - 1)]);
        }
        t[r] = (now() - t0) / LOOKUPS;
    }
    qsort(t, RUNS, sizeof t[0], cmp);
    double same[RUNS];
    for (int r = 0; r < RUNS; r++) {
        double t0 = now();
        for (int i = 0; i < LOOKUPS; i++) {
            int prof = mg_seltab_find(&v, big->coll, big->p);
            sink += mg_seltab_search(&v, prof, sizes[7]);
        }
        same[r] = (now() - t0) / LOOKUPS;
    }
    qsort(same, RUNS, sizeof same[0], cmp);
    double lin[3];
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        for (int i = 0; i < 20000; i++)
            sink += mg_profile_select_linear(big, sizes[i & (SIZES - 1)]);
        lin[r] = (now() - t0) / 20000;
    }
    qsort(lin, 3, sizeof lin[0], cmp);
    printf("profiles: %d (one with %d ranges), table %zu bytes\n", set.n, RANGES, bytes);
    printf("selection (hash of collective and p, then binary search), random sizes:\n");
    printf("  median %.1f ns per selection (min %.1f, max %.1f over %d runs of %d)\n",
           t[RUNS / 2] * 1e9, t[0] * 1e9, t[RUNS - 1] * 1e9, RUNS, LOOKUPS);
    printf("  one size over and over (an application loop): median %.1f ns per selection\n",
           same[RUNS / 2] * 1e9);
    printf("linear scan (the original's method), for comparison: %.1f ns per selection\n",
           lin[1] * 1e9);
    FILE *f = fopen("/proc/loadavg", "r");
    char load[64] = "?";
    if (f) {
        if (!fgets(load, sizeof load, f)) load[0] = 0;
        fclose(f);
    }
    printf("machine load average while measuring: %.14s\n", load);
    printf("target: at most 50 ns per selection%s\n", sink == 42 ? " " : "");
    free(block);
    mg_profile_set_free(&set);
    return 0;
}
