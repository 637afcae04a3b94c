/* Mock-ups of MPI_Reduce_scatter_block: GL17 (Reduce + Scatter), GL18 (Reduce_scatter with equal
 * counts), GL19 (Allreduce, each rank keeps its block). The input is p blocks of recvcount
 * elements, in recvbuf when every rank passes MPI_IN_PLACE; the result is one block. */
#include "algorithms.h"
#include "algutil.h"
#include "redutil.h"

/* GL17: the whole vector is reduced to rank 0 into scratch and scattered from there. */
int mg_reducescatterblock_as_reduce_scatter(const mg_args *a, const mg_shape *s,
                                            const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int blk = a->recvcount;
    if (blk == 0) return MPI_SUCCESS;
    void *full = mg_typed(x->msg, s);
    MG_TRY(PMPI_Reduce(mg_red_input(a), full, blk * s->p, a->recvtype, a->op, 0, a->comm));
    MG_TRY(PMPI_Scatter(full, blk, a->recvtype, a->recvbuf, blk, a->recvtype, 0, a->comm));
out:
    return rc;
}

/* p blocks at the root of the inner Reduce (rank 0); that is the maximum over ranks. */
void mg_reducescatterblock_as_reduce_scatter_need(const mg_args *a, const mg_shape *s,
                                                  mg_need *need) {
    (void)a;
    need->ints = 0;
    need->msg = mg_span(s, s->count * s->p);
}

unsigned mg_reducescatterblock_as_reduce_scatter_supports(const mg_args *a, const mg_shape *s) {
    (void)a;
    unsigned why = mg_red_layout(s, s->count * s->p, s->count);
    if (!why) why = mg_inner_defect(s, MPIGUIDE_COLL_REDUCE, s->count * s->p, 0, 0);
    return why ? why : mg_inner_defect(s, MPIGUIDE_COLL_SCATTER, s->count, 0, 0);
}

/* GL18: Reduce_scatter with recvcounts[i] = recvcount; MPI_IN_PLACE means the same for both. */
int mg_reducescatterblock_as_reducescatter(const mg_args *a, const mg_shape *s,
                                           const mg_scratch *x) {
    int *counts = x->ints;
    for (int i = 0; i < s->p; i++) counts[i] = a->recvcount;
    return PMPI_Reduce_scatter(a->sendbuf, a->recvbuf, counts, a->recvtype, a->op, a->comm);
}

void mg_reducescatterblock_as_reducescatter_need(const mg_args *a, const mg_shape *s,
                                                 mg_need *need) {
    (void)a;
    need->msg = 0;
    need->ints = (size_t)s->p * sizeof(int);
}

/* The inner Reduce_scatter has equal counts, MPI_IN_PLACE as the call. */
unsigned mg_reducescatterblock_as_reducescatter_supports(const mg_args *a, const mg_shape *s) {
    return mg_inner_defect(s, MPIGUIDE_COLL_REDUCE_SCATTER, s->count * s->p,
                           a->sendbuf == MPI_IN_PLACE, 0);
}

/* GL19: every rank receives the whole reduced vector into scratch and copies out its block.
 * With MPI_IN_PLACE the input is read from recvbuf, which only the own block overwrites. */
int mg_reducescatterblock_as_allreduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int blk = a->recvcount;
    if (blk == 0) return MPI_SUCCESS;
    void *full = mg_typed(x->msg, s);
    MG_TRY(PMPI_Allreduce(mg_red_input(a), full, blk * s->p, a->recvtype, a->op, a->comm));
    MG_TRY(mg_tcopy(mg_elem(full, (int64_t)blk * s->rank, s->extent), blk, a->recvtype, a->recvbuf,
                    blk, a->recvtype));
out:
    return rc;
}

void mg_reducescatterblock_as_allreduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = 0;
    need->msg = mg_span(s, s->count * s->p);
}

unsigned mg_reducescatterblock_as_allreduce_supports(const mg_args *a, const mg_shape *s) {
    (void)a;
    unsigned why = mg_red_layout(s, s->count * s->p, s->count);
    return why ? why : mg_inner_defect(s, MPIGUIDE_COLL_ALLREDUCE, s->count * s->p, 0, 0);
}
