/* PENDING: mock-ups of MPI_allgather (stubs until implemented). */
#include "algorithms.h"
#include "algutil.h"

int mg_allgather_as_gather_bcast(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_allgather_as_gather_bcast_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_allgather_as_gather_bcast_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_allgather_as_alltoall(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_allgather_as_alltoall_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_allgather_as_alltoall_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_allgather_as_allreduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_allgather_as_allreduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_allgather_as_allreduce_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_allgather_as_allgatherv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)a, (void)s, (void)x;
    return MPI_ERR_INTERN;
}

void mg_allgather_as_allgatherv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_allgather_as_allgatherv_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
