/* The library's own collective on a call's arguments, through PMPI (never intercepted again:
 * docs/dev/design.md invariant 3); what every fallback runs. */
#include "call.h"

#ifdef MPIGUIDE_TEST_ALGORITHMS
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
/* Test builds only: MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Name[,MPI_Name...] makes the library's default
 * of those collectives, as the benchmark and check measure it, 200 us slower
 * (MPIGUIDE_TEST_SLOW_DEFAULT_US microseconds, a spin below 1 ms and a sleep from 1 ms; a
 * nonblocking one's start), so the end-to-end tests of `tune` have a real violation to find and
 * the tuned launch has a default to avoid; a much longer delay in one launch makes it a disturbed
 * one. With MPIGUIDE_TEST_SLOW_DEFAULT_ALL=1 also wherever the wrappers run the default themselves
 * (their fast path and the slow half's default, the collective switched on even without
 * configuration: lifecycle.c), so that a whole application sees a slow default (online mode's tests
 * and bench/online.sh). */
static int read_done, slow_all;
static unsigned slow; /* bit per collective id (at most 32: alg_seen.c) */
static double delay = 200e-6;

static void read_slow(void) {
    const char *e = getenv("MPIGUIDE_TEST_SLOW_DEFAULT"),
               *us = getenv("MPIGUIDE_TEST_SLOW_DEFAULT_US"),
               *all = getenv("MPIGUIDE_TEST_SLOW_DEFAULT_ALL");
    char name[64];
    for (const char *s = e; s && *s;) {
        size_t n = strcspn(s, ",");
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), s);
        int c = mg_coll_lookup(name);
        if (c >= 0) slow |= 1u << c;
        s += n + (s[n] == ',');
    }
    if (us && atof(us) > 0) delay = atof(us) * 1e-6;
    slow_all = all && atoi(all) > 0;
    read_done = 1;
}

void mg_test_slow_default(int coll) {
    if (!read_done) read_slow();
    if (!(slow >> coll & 1u)) return;
    if (delay >= 1e-3) {
        /* a millisecond spin on a loaded machine lost the core for whole time slices: medians
         * of 24 ms for a 2 ms delay, so the disturbed launch no longer stood out; a sleep
         * leaves the core to the load and wakes up about on time */
        struct timespec d;
        d.tv_sec = (time_t)delay;
        d.tv_nsec = (long)((delay - (double)d.tv_sec) * 1e9);
        nanosleep(&d, NULL);
        return;
    }
    double t = PMPI_Wtime();
    while (PMPI_Wtime() - t < delay) continue;
}

void mg_test_slow_route(int coll) {
    if (!read_done) read_slow();
    if (slow_all) mg_test_slow_default(coll);
}

int mg_test_slowed(int coll) {
    if (!read_done) read_slow();
    return slow_all && (slow >> coll & 1u);
}
#else
#define mg_test_slow_default(coll) ((void)0)
#endif

int mg_run_default(int coll, const mg_args *a) {
    mg_test_slow_default(coll);
    return mg_run_pmpi(coll, a);
}

int mg_run_pmpi(int coll, const mg_args *a) {
    switch (coll) {
#define MG_COLL(ID, Name, s, f, P, A, F, D)                                                        \
    case MPIGUIDE_COLL_##ID:                                                                       \
        return PMPI_##Name D;
#include "catalog/collectives.def"
#undef MG_COLL
    default:
        return MPI_ERR_ARG;
    }
}
