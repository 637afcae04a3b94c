/* Mock-ups of MPI_Scatter: GL21 (Bcast of the whole send buffer, each rank keeps its block) and
 * GL22 (Scatterv). Block i of the root's sendbuf lives at sendbuf + i * sendcount *
 * extent(sendtype); MPI_IN_PLACE is the root's recvbuf alone and means it keeps its block in
 * sendbuf. Scratch is packed (msize bytes per block) and moves as MPI_BYTE. */
#include "algorithms.h"
#include "algutil.h"
#include "packview.h"

/* GL21: the root broadcasts its p blocks as packed bytes (straight from sendbuf when that is
 * contiguous, so every rank uses MPI_BYTE and the Bcast never mixes datatypes); the others
 * receive them into scratch and unpack block rank. The root copies its own block unless it is
 * in place. */
int mg_scatter_as_bcast(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS, local = MPI_SUCCESS;
    if (s->msize == 0) return MPI_SUCCESS;
    size_t n = (size_t)s->msize;
    int total = (int)(s->p * n);
    if (s->rank != a->root) {
        char *all = x->msg;
        MG_TRY(PMPI_Bcast(all, total, MPI_BYTE, a->root, a->comm));
        MG_TRY(mg_unpack(all + (size_t)s->rank * n, a->recvbuf, a->recvcount, a->recvtype));
        goto out;
    }
    const void *all = NULL;
    MG_TRY(mg_packed_view(a->sendbuf, s->p * a->sendcount, a->sendtype, &all));
    if (!all) {
        /* A failed pack (say, an invalid datatype) is returned after the Bcast, which the root
         * still joins: the others would wait for it forever. */
        local = mg_pack(a->sendbuf, s->p * a->sendcount, a->sendtype, x->msg);
        all = x->msg;
    }
    /* The root's Bcast buffer is only read. */
    MG_TRY(PMPI_Bcast((void *)(uintptr_t)all, total, MPI_BYTE, a->root, a->comm));
    if (a->recvbuf != MPI_IN_PLACE)
        MG_TRY(
            mg_tcopy(mg_elem(a->sendbuf, (int64_t)s->rank * a->sendcount, mg_extent(a->sendtype)),
                     a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype));
out:
    return rc != MPI_SUCCESS ? rc : local;
}

/* p packed blocks on non-roots, and on a root whose sendbuf is not contiguous. */
void mg_scatter_as_bcast_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = 0;
    need->msg = (size_t)s->p * (size_t)s->msize;
}

unsigned mg_scatter_as_bcast_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_p_times_count(a, s);
}

/* GL22: the root sends sendcount elements from i * sendcount to rank i; non-roots' arrays are
 * not significant and stay unset. MPI_IN_PLACE means the same for Scatterv. */
int mg_scatter_as_scatterv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    if (s->msize == 0) return MPI_SUCCESS;
    int *counts = x->ints, *displs = x->ints + s->p;
    if (s->rank == a->root)
        for (int i = 0; i < s->p; i++) {
            counts[i] = a->sendcount;
            displs[i] = i * a->sendcount;
        }
    return PMPI_Scatterv(a->sendbuf, counts, displs, a->sendtype, a->recvbuf, a->recvcount,
                         a->recvtype, a->root, a->comm);
}

/* Only the root uses the arrays, but a need is the maximum over ranks. */
void mg_scatter_as_scatterv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_2p_ints(a, s, need);
}

/* The displacements reach (p - 1) * sendcount; p * msize bounds that. */
unsigned mg_scatter_as_scatterv_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_p_times_count(a, s);
}
