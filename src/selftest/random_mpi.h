/* `mpiguide selftest --random`: the MPI side of the random differential test (cases and the
 * sequential reference are rcase.h). Every case runs the library's own collective and every
 * algorithm of the collective on identical inputs and compares each with the reference. */
#ifndef MG_SELFTEST_RUN_H
#define MG_SELFTEST_RUN_H

#include "mpiguide.h"
#include <stdint.h>

typedef struct mg_random_opts {
    uint64_t seed;
    int64_t cases; /* per collective */
    int64_t only;  /* -1, or the one case number to run */
    unsigned char colls[MPIGUIDE_COLL_COUNT];
    int any_coll;          /* colls lists the collectives to test (else every one it knows) */
    const char *algs;      /* comma-separated algorithm names (test-only rows only when named) */
    const char *repro_dir; /* write reproducers of new findings here */
    int verbose;
    int timeout;       /* seconds per case before the run is aborted naming it */
    double time_limit; /* --time-limit: no case starts after this many seconds (0: none) */
    const char *argv0; /* the tool's path, for the rerun commands */
    int intercepted;   /* --intercepted: each case through the public MPI_* call too */
} mg_random_opts;

/* Collective over MPI_COMM_WORLD (MPI initialised). Returns the exit code (interfaces.md
 * section 3): 0, or 1 when a mock-up defect, an unexplained mismatch, a new library defect or an
 * error was found. */
int mg_selftest_random(const mg_random_opts *o);

#endif
