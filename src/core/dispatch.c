/* Running an algorithm: predicate, scratch need against the pools, then the algorithm or the
 * library's default. Every input to the decision is shared by all ranks (docs/dev/design.md
 * invariant 1). */
#include "comm_scratch.h"
#include "registry.h"
#include "scratch.h"
#include "libalg/libalg_mpi.h"

#ifdef MPIGUIDE_TEST_ALGORITHMS
#include <stdlib.h>
#include <string.h>
/* Test builds only: MPIGUIDE_TEST_SLOW_DEFAULT=MPI_Name makes the library's default of that
 * collective, as the benchmark and check measure it, 200 us slower (MPIGUIDE_TEST_SLOW_DEFAULT_US
 * microseconds), so the end-to-end test of `tune` has a real violation to find and the tuned
 * launch has a default to avoid; a much longer delay in one launch makes it a disturbed one. */
static void test_slow_default(int coll) {
    static int read, slow = -1;
    static double delay = 200e-6;
    if (!read) {
        const char *e = getenv("MPIGUIDE_TEST_SLOW_DEFAULT"),
                   *us = getenv("MPIGUIDE_TEST_SLOW_DEFAULT_US");
        slow = e ? mpiguide_collective_id(e) : -1;
        if (us && atof(us) > 0) delay = atof(us) * 1e-6;
        read = 1;
    }
    if (slow != coll) return;
    double t = PMPI_Wtime();
    while (PMPI_Wtime() - t < delay) continue;
}
/* Test builds only: MPIGUIDE_TEST_SLOW_ALG=name makes that mock-up 200 us slower wherever it
 * runs, so a profile entry can be made deliberately wrong for the test of the guard. */
static void test_slow_alg(const mg_alg *A) {
    static int read;
    static const char *slow;
    if (!read) {
        slow = getenv("MPIGUIDE_TEST_SLOW_ALG");
        read = 1;
    }
    if (!slow || strcmp(slow, A->name)) return;
    double t = PMPI_Wtime();
    while (PMPI_Wtime() - t < 200e-6) continue;
}
#else
#define test_slow_default(coll) ((void)0)
#define test_slow_alg(A)        ((void)0)
#endif

int mg_run_default(int coll, const mg_args *a) {
    test_slow_default(coll);
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

int mg_dispatch_plan(const mg_alg *A, const mg_args *a, mg_shape *s, unsigned *declined, int *err) {
    *declined = 0;
    *err = MPI_SUCCESS;
    if (A->flags & MG_AF_DEFAULT) return MPIGUIDE_RAN_DEFAULT;
    if (!mg_pool.ready) return MPIGUIDE_FALLBACK_OFF;
    int rc = mg_shape_of(A->coll, a, s);
    if (rc != MPI_SUCCESS) {
        *err = rc;
        return -1;
    }
    /* An invalid root is the library's to report, on every rank alike (root is shared). */
    if ((mg_coll_flags(A->coll) & MG_CF_ROOTED) && !s->inter && (a->root < 0 || a->root >= s->p))
        return MPIGUIDE_FALLBACK_ARGS;
    unsigned why = s->inter ? MPIGUIDE_DECLINE_INTERCOMM : A->supports(a, s);
    if (why) {
        *declined = why;
        return MPIGUIDE_FALLBACK_ARGS;
    }
    mg_need need = {0, 0};
    A->need(a, s, &need);
    if (need.msg > mg_pool.msg_bytes || need.ints > mg_pool.int_bytes)
        return MPIGUIDE_FALLBACK_MEMORY;
    if (mg_pool.thread_multiple) { /* the communicator's own scratch, grown on every rank */
        int fits = 1;
        if ((*err = mg_cscratch_reserve(a->comm, &need, &fits)) != MPI_SUCCESS) return -1;
        if (!fits) return MPIGUIDE_FALLBACK_MEMORY;
    }
    return MPIGUIDE_RAN_MOCKUP;
}

int mg_dispatch_run(const mg_alg *A, const mg_args *a, const mg_shape *s) {
    test_slow_alg(A);
    mg_scratch scratch = {mg_pool.msg, mg_pool.ints};
    if (mg_pool.thread_multiple) {
        int rc = mg_cscratch_get(a->comm, &scratch);
        if (rc != MPI_SUCCESS) return rc;
    }
    return A->run(a, s, &scratch);
}

int mg_dispatch(int alg, const mg_args *a, int *outcome, unsigned *declined) {
    const mg_alg *A = mg_alg_get(alg);
    unsigned why = 0;
    int err;
    mg_shape s;
    if (declined) *declined = 0;
    if (!A && mg_libalg_runnable(alg)) return mg_libalg_dispatch(alg, a, outcome, declined);
    if (!A) return MPI_ERR_ARG;
    int o = mg_dispatch_plan(A, a, &s, &why, &err);
    if (o < 0) return err;
    if (declined) *declined = why;
    if (outcome) *outcome = o;
    if (o == MPIGUIDE_RAN_MOCKUP) return mg_dispatch_run(A, a, &s);
    return mg_run_default(A->coll, a);
}

MG_EXPORT int mpiguide_run(int alg, const mpiguide_args *args, int *outcome, unsigned *declined) {
    return mg_dispatch(alg, args, outcome, declined);
}

MG_EXPORT int mpiguide_plan(int alg, const mpiguide_args *args, int *outcome, unsigned *declined) {
    const mg_alg *A = mg_alg_get(alg);
    unsigned why = 0;
    int err = MPI_SUCCESS;
    mg_shape s;
    if (declined) *declined = 0;
    if (!A) return MPI_ERR_ARG;
    int o = mg_dispatch_plan(A, args, &s, &why, &err);
    if (o < 0) return err;
    if (outcome) *outcome = o;
    if (declined) *declined = why;
    return MPI_SUCCESS;
}

MG_EXPORT int mpiguide_run_named(const char *coll, const char *alg, const mpiguide_args *args) {
    int c = mpiguide_collective_id(coll);
    int id = c < 0 ? -1 : mpiguide_algorithm_id(c, alg);
    if (id < 0) return MPI_ERR_ARG;
    return mg_dispatch(id, args, NULL, NULL);
}
