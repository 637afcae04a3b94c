/* PENDING: mock-ups of MPI_reduce (stubs until implemented). */
#include "algorithms.h"
#include "algutil.h"

int mg_reduce_as_allreduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_reduce_as_allreduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_reduce_as_allreduce_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_reduce_as_reducescatterblock_gather(const mg_args *a, const mg_shape *s,
                                           const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_reduce_as_reducescatterblock_gather_need(const mg_args *a, const mg_shape *s,
                                                 mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_reduce_as_reducescatterblock_gather_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_reduce_as_reducescatter_gatherv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_reduce_as_reducescatter_gatherv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_reduce_as_reducescatter_gatherv_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
