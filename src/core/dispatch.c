/* Running an algorithm: predicate, scratch need against the pools, then the algorithm or the
 * library's default. Every input to the decision is shared by all ranks (DESIGN invariant 1). */
#include "registry.h"
#include "scratch.h"

int mg_run_default(int coll, const mg_args *a) {
    switch (coll) {
#define MG_COLL(ID, Name, s, f, P, A, F, D)                                                        \
    case MPIGUIDE_COLL_##ID:                                                                       \
        return PMPI_##Name D;
#include "collectives.def"
#undef MG_COLL
    default:
        return MPI_ERR_ARG;
    }
}

static int fallback(int coll, const mg_args *a, int why, int *outcome) {
    if (outcome) *outcome = why;
    return mg_run_default(coll, a);
}

int mg_dispatch(int alg, const mg_args *a, int *outcome, unsigned *declined) {
    const mg_alg *A = mg_alg_get(alg);
    if (declined) *declined = 0;
    if (!A) return MPI_ERR_ARG;
    if (A->flags & MG_AF_DEFAULT) return fallback(A->coll, a, MPIGUIDE_RAN_DEFAULT, outcome);
    if (!mg_pool.ready) return fallback(A->coll, a, MPIGUIDE_FALLBACK_OFF, outcome);
    mg_shape s;
    int rc = mg_shape_of(A->coll, a, &s);
    if (rc != MPI_SUCCESS) return rc;
    unsigned why = s.inter                   ? MPIGUIDE_DECLINE_INTERCOMM
                   : mg_pool.thread_multiple ? MPIGUIDE_DECLINE_THREADS
                                             : A->supports(a, &s);
    if (why) {
        if (declined) *declined = why;
        return fallback(A->coll, a, MPIGUIDE_FALLBACK_ARGS, outcome);
    }
    mg_need need = {0, 0};
    A->need(a, &s, &need);
    if (need.msg > mg_pool.msg_bytes || need.ints > mg_pool.int_bytes)
        return fallback(A->coll, a, MPIGUIDE_FALLBACK_MEMORY, outcome);
    mg_scratch scratch = {mg_pool.msg, mg_pool.ints};
    if (outcome) *outcome = MPIGUIDE_RAN_MOCKUP;
    return A->run(a, &s, &scratch);
}

MG_EXPORT int mpiguide_run(int alg, const mpiguide_args *args, int *outcome, unsigned *declined) {
    return mg_dispatch(alg, args, outcome, declined);
}

MG_EXPORT int mpiguide_run_named(const char *coll, const char *alg, const mpiguide_args *args) {
    int c = mpiguide_collective_id(coll);
    int id = c < 0 ? -1 : mpiguide_algorithm_id(c, alg);
    if (id < 0) return MPI_ERR_ARG;
    return mg_dispatch(id, args, NULL, NULL);
}
