/* PENDING: mock-ups of MPI_gather (stubs until implemented). */
#include "algorithms.h"
#include "algutil.h"

int mg_gather_as_allgather(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_gather_as_allgather_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_gather_as_allgather_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_gather_as_gatherv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_gather_as_gatherv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_gather_as_gatherv_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_gather_as_reduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_gather_as_reduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_gather_as_reduce_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
