/* PENDING: mock-ups of MPI_reduce_scatter (stubs until implemented). */
#include "algorithms.h"
#include "algutil.h"

int mg_reducescatter_as_allreduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_reducescatter_as_allreduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_reducescatter_as_allreduce_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_reducescatter_as_reduce_scatterv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_reducescatter_as_reduce_scatterv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_reducescatter_as_reduce_scatterv_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
