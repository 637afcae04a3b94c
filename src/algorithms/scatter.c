/* PENDING: mock-ups of MPI_scatter (stubs until implemented). */
#include "algorithms.h"
#include "algutil.h"

int mg_scatter_as_bcast(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_scatter_as_bcast_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_scatter_as_bcast_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_scatter_as_scatterv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_scatter_as_scatterv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_scatter_as_scatterv_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
