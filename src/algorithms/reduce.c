/* Mock-ups of MPI_Reduce: GL14 (Allreduce), GL15 (Reduce_scatter_block + Gather on a padded
 * vector), GL16 (Reduce_scatter + Gatherv in chunks of C elements), and the repair of the
 * library's own MPI_Reduce where MPI_IN_PLACE at the root is broken (copy + Reduce). MPI_IN_PLACE
 * is the root's alone here while the inner collectives want it on all ranks or none, so the root
 * passes its recvbuf as an ordinary send buffer wherever it is not also written by the same call.
 */
#include "algorithms.h"
#include "algutil.h"
#include "chunks.h"
#include "redutil.h"

/* GL14: everyone receives the result; non-roots into scratch. A root with MPI_IN_PLACE copies
 * its input to scratch first, because Allreduce may not read and write recvbuf unless every
 * rank passes MPI_IN_PLACE. */
int mg_reduce_as_allreduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int n = a->recvcount;
    if (n == 0) return MPI_SUCCESS;
    void *tmp = mg_typed(x->msg, s);
    if (s->rank != a->root) {
        MG_TRY(PMPI_Allreduce(a->sendbuf, tmp, n, a->recvtype, a->op, a->comm));
    } else if (a->sendbuf == MPI_IN_PLACE) {
        MG_TRY(mg_tcopy(a->recvbuf, n, a->recvtype, tmp, n, a->recvtype));
        MG_TRY(PMPI_Allreduce(tmp, a->recvbuf, n, a->recvtype, a->op, a->comm));
    } else {
        MG_TRY(PMPI_Allreduce(a->sendbuf, a->recvbuf, n, a->recvtype, a->op, a->comm));
    }
out:
    return rc;
}

/* n elements on every rank but a root that reduces from sendbuf; the maximum is n. */
void mg_reduce_as_allreduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = 0;
    need->msg = mg_span(s, s->count);
}

unsigned mg_reduce_as_allreduce_supports(const mg_args *a, const mg_shape *s) {
    (void)a;
    unsigned why = mg_red_layout(s, s->count, s->count);
    return why ? why : mg_inner_defect(s, MPIGUIDE_COLL_ALLREDUCE, s->count, 0, 0);
}

/* GL15: the vector is padded with c < p zero elements to a multiple of p (skipped when c == 0),
 * reduced and scattered in blocks of (n + c) / p, and the blocks gathered at the root, into
 * recvbuf directly when there is no padding, else into the padded scratch and then copied. */
int mg_reduce_as_reducescatterblock_gather(const mg_args *a, const mg_shape *s,
                                           const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int64_t n = s->count, padded = mg_padded(n, s->p), blk = padded / s->p;
    if (n == 0) return MPI_SUCCESS;
    int root = s->rank == a->root;
    const void *in = mg_red_input(a); /* MPI_IN_PLACE is valid at the root only */
    char *block = x->msg, *full = block + mg_align(mg_span(s, blk));
    void *tblock = mg_typed(block, s), *tfull = mg_typed(full, s);
    if (padded != n) {
        mg_red_zero_tail(full, s, n, padded);
        MG_TRY(mg_tcopy(in, (int)n, a->recvtype, tfull, (int)n, a->recvtype));
        in = tfull;
    }
    MG_TRY(PMPI_Reduce_scatter_block(in, tblock, (int)blk, a->recvtype, a->op, a->comm));
    MG_TRY(PMPI_Gather(tblock, (int)blk, a->recvtype, padded == n ? a->recvbuf : tfull, (int)blk,
                       a->recvtype, a->root, a->comm));
    if (root && padded != n)
        MG_TRY(mg_tcopy(tfull, (int)n, a->recvtype, a->recvbuf, (int)n, a->recvtype));
out:
    return rc;
}

/* A block of (n + c) / p elements, and the padded vector of n + c when c > 0. */
void mg_reduce_as_reducescatterblock_gather_need(const mg_args *a, const mg_shape *s,
                                                 mg_need *need) {
    (void)a;
    mg_red_need_padded(s, need);
}

unsigned mg_reduce_as_reducescatterblock_gather_supports(const mg_args *a, const mg_shape *s) {
    unsigned why = mg_red_layout(s, mg_padded(s->count, s->p), s->count);
    int64_t blk = mg_padded(s->count, s->p) / s->p;
    if (!why) why = mg_inner_defect(s, MPIGUIDE_COLL_REDUCE_SCATTER_BLOCK, blk, 0, 0);
    return why ? why : mg_inner_defect(s, MPIGUIDE_COLL_GATHER, blk, 0, a->root);
}

/* GL16: rank i receives the chunks mg_chunk_counts() assigns to it, and the root gathers them
 * in rank order. A root reducing from sendbuf receives its own piece straight into its place
 * in recvbuf and gathers in place; everyone else reduces into scratch. */
int mg_reduce_as_reducescatter_gatherv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    if (s->count == 0) return MPI_SUCCESS;
    int *counts = x->ints, *displs = x->ints + s->p;
    mg_chunk_counts(s->count, s->p, mg_chunk_elems(s->tsize), counts, displs);
    int mine = counts[s->rank];
    void *tmp = mg_typed(x->msg, s);
    if (s->rank == a->root && a->sendbuf != MPI_IN_PLACE) {
        void *myslot = mg_recv_block(a->recvbuf, displs[s->rank], mine, s->extent);
        MG_TRY(PMPI_Reduce_scatter(a->sendbuf, myslot, counts, a->recvtype, a->op, a->comm));
        MG_TRY(PMPI_Gatherv(MPI_IN_PLACE, mine, a->recvtype, a->recvbuf, counts, displs,
                            a->recvtype, a->root, a->comm));
        goto out;
    }
    MG_TRY(PMPI_Reduce_scatter(mg_red_input(a), tmp, counts, a->recvtype, a->op, a->comm));
    MG_TRY(PMPI_Gatherv(tmp, mine, a->recvtype, a->recvbuf, counts, displs, a->recvtype, a->root,
                        a->comm));
out:
    return rc;
}

/* The largest piece any rank receives (at most (floor(n / (C p)) + 1) C elements), counts and
 * displacements. */
void mg_reduce_as_reducescatter_gatherv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = 2 * (size_t)s->p * sizeof(int);
    need->msg = mg_span(s, mg_chunk_max(s->count, s->p, mg_chunk_elems(s->tsize)));
}

unsigned mg_reduce_as_reducescatter_gatherv_supports(const mg_args *a, const mg_shape *s) {
    (void)a;
    unsigned why = mg_red_layout(s, s->count, s->count);
    return why ? why : mg_red_inner_chunked(s, 0);
}

/* Copy + Reduce, the repair of MPI_IN_PLACE at a root (src/defects/known.txt,
 * mpich-reduce-inplace-root): a root passing MPI_IN_PLACE copies its input from recvbuf to
 * scratch and reduces from there into recvbuf, so the library's MPI_Reduce never sees
 * MPI_IN_PLACE; every other call is the library's MPI_Reduce unchanged. Only the root knows
 * whether it passes MPI_IN_PLACE, and the inner call is the same collective either way. */
int mg_reduce_as_copy_reduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int n = a->recvcount;
    if (s->rank == a->root && a->sendbuf == MPI_IN_PLACE && n > 0) {
        void *in = mg_typed(x->msg, s);
        MG_TRY(mg_tcopy(a->recvbuf, n, a->recvtype, in, n, a->recvtype));
        MG_TRY(PMPI_Reduce(in, a->recvbuf, n, a->recvtype, a->op, a->root, a->comm));
        goto out;
    }
    MG_TRY(PMPI_Reduce(a->sendbuf, a->recvbuf, n, a->recvtype, a->op, a->root, a->comm));
out:
    return rc;
}

/* The root's copy of n elements (every rank states it: a need is the maximum over ranks). */
void mg_reduce_as_copy_reduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = 0;
    need->msg = mg_span(s, s->count);
}

unsigned mg_reduce_as_copy_reduce_supports(const mg_args *a, const mg_shape *s) {
    unsigned why = mg_red_layout(s, s->count, s->count);
    return why ? why : mg_inner_defect(s, MPIGUIDE_COLL_REDUCE, s->count, 0, a->root);
}
