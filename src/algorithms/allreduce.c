/* Mock-ups of MPI_Allreduce: GL5 (Reduce + Bcast), GL6 (Reduce_scatter_block + Allgather on a
 * padded vector), GL7 (Reduce_scatter + Allgatherv in chunks of C elements). */
#include "algorithms.h"
#include "algutil.h"
#include "chunks.h"
#include "redutil.h"

/* GL5: the reduction to rank 0 keeps rank order, so non-commutative ops stay correct. */
int mg_allreduce_as_reduce_bcast(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)x;
    int rc;
    const void *in = a->sendbuf == MPI_IN_PLACE ? a->recvbuf : a->sendbuf;
    const void *root_in = a->sendbuf == MPI_IN_PLACE ? MPI_IN_PLACE : a->sendbuf;
    MG_TRY(PMPI_Reduce(s->rank == 0 ? root_in : in, a->recvbuf, a->recvcount, a->recvtype, a->op, 0,
                       a->comm));
    MG_TRY(PMPI_Bcast(a->recvbuf, a->recvcount, a->recvtype, 0, a->comm));
out:
    return rc;
}

void mg_allreduce_as_reduce_bcast_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

/* The inner Reduce passes MPI_IN_PLACE at root 0 when the call does. */
unsigned mg_allreduce_as_reduce_bcast_supports(const mg_args *a, const mg_shape *s) {
    return mg_inner_defect(s, MPIGUIDE_COLL_REDUCE, s->count, a->sendbuf == MPI_IN_PLACE, 0);
}

/* GL6: the vector is padded with c < p zero elements to a multiple of p; with c == 0 the
 * padded copy is skipped and the Allgather writes straight into recvbuf. */
int mg_allreduce_as_reducescatterblock_allgather(const mg_args *a, const mg_shape *s,
                                                 const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int64_t n = s->count, padded = mg_padded(n, s->p), blk = padded / s->p;
    if (n == 0) return MPI_SUCCESS;
    const void *in = mg_red_input(a);
    char *block = x->msg;
    char *full = block + mg_align(mg_span(s, blk));
    if (padded == n) {
        MG_TRY(PMPI_Reduce_scatter_block(in, mg_typed(block, s), (int)blk, a->recvtype, a->op,
                                         a->comm));
        MG_TRY(PMPI_Allgather(mg_typed(block, s), (int)blk, a->recvtype, a->recvbuf, (int)blk,
                              a->recvtype, a->comm));
        goto out;
    }
    mg_red_zero_tail(full, s, n, padded);
    MG_TRY(mg_tcopy(in, (int)n, a->recvtype, mg_typed(full, s), (int)n, a->recvtype));
    MG_TRY(PMPI_Reduce_scatter_block(mg_typed(full, s), mg_typed(block, s), (int)blk, a->recvtype,
                                     a->op, a->comm));
    MG_TRY(PMPI_Allgather(mg_typed(block, s), (int)blk, a->recvtype, mg_typed(full, s), (int)blk,
                          a->recvtype, a->comm));
    MG_TRY(mg_tcopy(mg_typed(full, s), (int)n, a->recvtype, a->recvbuf, (int)n, a->recvtype));
out:
    return rc;
}

void mg_allreduce_as_reducescatterblock_allgather_need(const mg_args *a, const mg_shape *s,
                                                       mg_need *need) {
    (void)a;
    mg_red_need_padded(s, need);
}

/* The padded vector holds up to p - 1 elements more than the user's buffers: it must fit an
 * int count and be a valid receive buffer (a count of 1 padded to p > 1 elements needs a
 * positive extent too). */
unsigned mg_allreduce_as_reducescatterblock_allgather_supports(const mg_args *a,
                                                               const mg_shape *s) {
    (void)a;
    unsigned why = mg_red_layout(s, mg_padded(s->count, s->p), s->count);
    int64_t blk = mg_padded(s->count, s->p) / s->p;
    return why ? why : mg_inner_defect(s, MPIGUIDE_COLL_REDUCE_SCATTER_BLOCK, blk, 0, 0);
}

/* GL7: rank i receives the chunks mg_chunk_counts() assigns to it straight into its own
 * place in recvbuf, so the Allgatherv runs in place. With MPI_IN_PLACE the Reduce_scatter
 * result lands at the start of recvbuf and goes out from a scratch copy. */
int mg_allreduce_as_reducescatter_allgatherv(const mg_args *a, const mg_shape *s,
                                             const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    if (s->count == 0) return MPI_SUCCESS;
    int *counts = x->ints, *displs = x->ints + s->p;
    mg_chunk_counts(s->count, s->p, mg_chunk_elems(s->tsize), counts, displs);
    int mine = counts[s->rank];
    void *myslot = mg_recv_block(a->recvbuf, displs[s->rank], mine, s->extent);
    if (a->sendbuf != MPI_IN_PLACE) {
        MG_TRY(PMPI_Reduce_scatter(a->sendbuf, myslot, counts, a->recvtype, a->op, a->comm));
        MG_TRY(PMPI_Allgatherv(MPI_IN_PLACE, 0, a->recvtype, a->recvbuf, counts, displs,
                               a->recvtype, a->comm));
        goto out;
    }
    MG_TRY(PMPI_Reduce_scatter(MPI_IN_PLACE, a->recvbuf, counts, a->recvtype, a->op, a->comm));
    MG_TRY(mg_tcopy(a->recvbuf, mine, a->recvtype, mg_typed(x->msg, s), mine, a->recvtype));
    MG_TRY(PMPI_Allgatherv(mg_typed(x->msg, s), mine, a->recvtype, a->recvbuf, counts, displs,
                           a->recvtype, a->comm));
out:
    return rc;
}

void mg_allreduce_as_reducescatter_allgatherv_need(const mg_args *a, const mg_shape *s,
                                                   mg_need *need) {
    need->ints = 2 * (size_t)s->p * sizeof(int);
    need->msg = a->sendbuf == MPI_IN_PLACE
                    ? mg_span(s, mg_chunk_max(s->count, s->p, mg_chunk_elems(s->tsize)))
                    : 0;
}

unsigned mg_allreduce_as_reducescatter_allgatherv_supports(const mg_args *a, const mg_shape *s) {
    unsigned why = mg_red_layout(s, s->count, s->count);
    return why ? why : mg_red_inner_chunked(s, a->sendbuf == MPI_IN_PLACE);
}
