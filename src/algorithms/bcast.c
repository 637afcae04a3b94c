/* PENDING: mock-ups of MPI_bcast (stubs until implemented). */
#include "algorithms.h"
#include "algutil.h"

int mg_bcast_as_allgatherv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_bcast_as_allgatherv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_bcast_as_allgatherv_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_bcast_as_scatter_allgather(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_bcast_as_scatter_allgather_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_bcast_as_scatter_allgather_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
