/* PENDING: mock-ups of MPI_reduce_scatter_block (stubs until implemented). */
#include "algorithms.h"
#include "algutil.h"

int mg_reducescatterblock_as_reduce_scatter(const mg_args *a, const mg_shape *s,
                                            const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_reducescatterblock_as_reduce_scatter_need(const mg_args *a, const mg_shape *s,
                                                  mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_reducescatterblock_as_reduce_scatter_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_reducescatterblock_as_reducescatter(const mg_args *a, const mg_shape *s,
                                           const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_reducescatterblock_as_reducescatter_need(const mg_args *a, const mg_shape *s,
                                                 mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_reducescatterblock_as_reducescatter_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_reducescatterblock_as_allreduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_reducescatterblock_as_allreduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_reducescatterblock_as_allreduce_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
