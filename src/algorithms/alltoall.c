/* PENDING: mock-ups of MPI_alltoall (stubs until implemented). */
#include "algorithms.h"
#include "algutil.h"

int mg_alltoall_as_alltoallv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_alltoall_as_alltoallv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_alltoall_as_alltoallv_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
