/* The one dispatcher: for every kind of algorithm (the default, a mock-up of the registry, a
 * library algorithm of src/libalg/) the same plan step (pools, shape, root, intercommunicator,
 * the kind's own predicate, scratch) and the same run step. Tuned and forced mode, the guard,
 * MPIGUIDE_VERIFY, repairs, the benchmark and the public API all go through here, so a measured
 * algorithm is exactly what the library would run. Every input to a decision is shared by all
 * ranks (docs/dev/design.md invariant 1). */
#include "dispatch.h"
#include "libalg/libalg_mpi.h"
#include "runtime/comm_scratch.h"
#include "runtime/scratch.h"

#ifdef MPIGUIDE_TEST_ALGORITHMS
#include <stdlib.h>
#include <string.h>
/* Test builds only: MPIGUIDE_TEST_SLOW_ALG=NAME[,NAME...] makes those algorithms (mock-ups or
 * library algorithms; `all`: every one but the defaults) 200 us slower wherever they run, so a
 * profile entry can be made deliberately wrong for the test of the guard, and every candidate
 * slower than the default for the test of online mode. */
static void test_slow_alg(const char *name) {
    static int read;
    static const char *slow;
    if (!read) {
        slow = getenv("MPIGUIDE_TEST_SLOW_ALG");
        read = 1;
    }
    if (!slow || !name) return;
    size_t len = strlen(name);
    int listed = !strcmp(slow, "all");
    for (const char *s = slow; !listed && *s;) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        listed = n == len && !strncmp(s, name, n);
        s += n + (comma != NULL);
    }
    if (!listed) return;
    double t = PMPI_Wtime();
    while (PMPI_Wtime() - t < 200e-6) continue;
}
#else
#define test_slow_alg(name) ((void)0)
#endif

int mg_dispatch_kind(int alg) {
    const mg_alg *A = mg_alg_get(alg);
    if (A) return (A->flags & MG_AF_DEFAULT) ? MPIGUIDE_KIND_DEFAULT : MPIGUIDE_KIND_MOCKUP;
    return mg_libalg_runnable(alg) ? MPIGUIDE_KIND_LIBRARY : -1;
}

/* A mock-up's scratch: the need against the pools, or under MPI_THREAD_MULTIPLE the
 * communicator's own scratch, grown on every rank alike. */
static int scratch_fits(const mg_alg *A, const mg_args *a, const mg_shape *s, int *err) {
    mg_need need = {0, 0};
    A->need(a, s, &need);
    if (need.msg > mg_pool.msg_bytes || need.ints > mg_pool.int_bytes) return 0;
    if (!mg_pool.thread_multiple) return 1;
    int fits = 1;
    if ((*err = mg_cscratch_reserve(a->comm, &need, &fits)) != MPI_SUCCESS) return -1;
    return fits;
}

int mg_dispatch_plan(int alg, const mg_args *a, mg_shape *s, unsigned *declined, int *err) {
    int kind = mg_dispatch_kind(alg);
    const mg_alg *A = mg_alg_get(alg);
    *declined = 0;
    *err = MPI_SUCCESS;
    if (kind < 0) {
        *err = MPI_ERR_ARG;
        return -1;
    }
    /* a nonblocking collective puts its request where the arguments say: none, no start */
    if (mg_coll_is_nb(mg_alg_coll(alg)) && !a->request) {
        *err = MPI_ERR_REQUEST;
        return -1;
    }
    if (kind == MPIGUIDE_KIND_DEFAULT) return MPIGUIDE_RAN_DEFAULT;
    if (kind == MPIGUIDE_KIND_MOCKUP ? !mg_pool.ready : !mg_libalg_ready())
        return MPIGUIDE_FALLBACK_OFF;
    int coll = mg_alg_coll(alg), rc = mg_shape_of(coll, a, s);
    if (rc != MPI_SUCCESS) {
        *err = rc;
        return -1;
    }
    /* An invalid root is the library's to report, on every rank alike (root is shared). */
    if (mg_coll_is_rooted(coll) && !s->inter && (a->root < 0 || a->root >= s->p))
        return MPIGUIDE_FALLBACK_ARGS;
    unsigned why = s->inter                        ? MPIGUIDE_DECLINE_INTERCOMM
                   : kind == MPIGUIDE_KIND_LIBRARY ? mg_libalg_declines(alg, a, s)
                                                   : A->supports(a, s);
    if (why) {
        *declined = why;
        return MPIGUIDE_FALLBACK_ARGS;
    }
    if (kind == MPIGUIDE_KIND_MOCKUP) {
        int fits = scratch_fits(A, a, s, err);
        if (fits < 0) return -1;
        if (!fits) return MPIGUIDE_FALLBACK_MEMORY;
    }
    return MPIGUIDE_RAN_MOCKUP;
}

#ifdef MPIGUIDE_TEST_ALGORITHMS
int mg_dispatch_run_lib(int alg, const mg_args *a, int *rc) {
    test_slow_alg(mg_alg_name(alg));
    return mg_libalg_run(alg, a, rc);
}
#endif

int mg_dispatch_run_row(const mg_alg *A, const mg_args *a, const mg_shape *s) {
    if (A->flags & MG_AF_DEFAULT) return mg_run_default(A->coll, a);
    test_slow_alg(A->name);
    mg_scratch scratch = {mg_pool.msg, mg_pool.ints};
    if (mg_pool.thread_multiple) {
        int rc = mg_cscratch_get(a->comm, &scratch);
        if (rc != MPI_SUCCESS) return rc;
    }
    return A->run(a, s, &scratch);
}

int mg_dispatch_complete(int alg, const mg_args *a, const mg_shape *s, int *ran) {
    int rc = MPI_SUCCESS, r = mg_dispatch_run(alg, a, s, &rc);
    if (ran) *ran = r;
    return r == 1 ? rc : mg_run_default(mg_alg_coll(alg), a);
}

int mg_dispatch(int alg, const mg_args *a, int *outcome, unsigned *declined) {
    unsigned why = 0;
    int err, rc = MPI_SUCCESS;
    mg_shape s;
    if (declined) *declined = 0;
    int o = mg_dispatch_plan(alg, a, &s, &why, &err);
    if (o < 0) return err;
    if (o == MPIGUIDE_RAN_MOCKUP) {
        int ran = mg_dispatch_run(alg, a, &s, &rc);
        if (ran == 1) {
            if (outcome) *outcome = o;
            return rc;
        }
        /* a library algorithm every rank agreed it could not run: the default runs */
        o = ran == 2 ? MPIGUIDE_FALLBACK_ARGS : MPIGUIDE_FALLBACK_LIBRARY;
        if (ran == 2) why = MPIGUIDE_DECLINE_DATATYPE;
    }
    if (declined) *declined = why;
    if (outcome) *outcome = o;
    return mg_run_default(mg_alg_coll(alg), a);
}

MG_EXPORT int mpiguide_run(int alg, const mpiguide_args *args, int *outcome, unsigned *declined) {
    return mg_dispatch(alg, args, outcome, declined);
}

MG_EXPORT int mpiguide_plan(int alg, const mpiguide_args *args, int *outcome, unsigned *declined) {
    unsigned why = 0;
    int err = MPI_SUCCESS;
    mg_shape s;
    if (declined) *declined = 0;
    int o = mg_dispatch_plan(alg, args, &s, &why, &err);
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
