/* Mock-ups of MPI_Barrier: collectives that cannot complete on any rank before every rank has
 * entered them. MPI_Allreduce of one int: each rank's result depends on every rank's input.
 * MPI_Alltoall of one byte per pair: each rank receives a byte from every rank. A count of 0
 * would not do: a library may return from an empty collective at once, without waiting. */
#include "algorithms.h"
#include "algutil.h"

int mg_barrier_as_allreduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)s, (void)x;
    int in = 0, out = 0;
    return PMPI_Allreduce(&in, &out, 1, MPI_INT, MPI_MAX, a->comm);
}

void mg_barrier_as_allreduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

unsigned mg_barrier_as_allreduce_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

int mg_barrier_as_alltoall(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    char *buf = x->msg;
    memset(buf, 0, (size_t)s->p);
    return PMPI_Alltoall(buf, 1, MPI_BYTE, buf + s->p, 1, MPI_BYTE, a->comm);
}

void mg_barrier_as_alltoall_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->msg = 2 * (size_t)s->p;
    need->ints = 0;
}

unsigned mg_barrier_as_alltoall_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
