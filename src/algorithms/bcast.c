/* Mock-ups of MPI_Bcast: GL9 (Allgatherv where only the root contributes) and GL10 (van de
 * Geijn: Scatter + Allgather of the packed message, padded to p blocks of whole bytes). */
#include "algorithms.h"
#include "algutil.h"
#include "packview.h"

/* GL9: the root contributes the packed message at displacement 0, everyone else nothing, in
 * place. Packed bytes, because ranks may describe the message with different datatypes (valid
 * MPI) and MPICH 4.0's ring Allgatherv cuts its pipeline chunks in units of each rank's own
 * datatype ("Message truncated", found by selftest --random); a contiguous buffer is its own
 * packed form, any other goes through scratch. A failed pack at the root is returned after the
 * collective, which the root still joins. */
int mg_bcast_as_allgatherv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS, local = MPI_SUCCESS;
    if (s->msize == 0) return MPI_SUCCESS;
    int *counts = x->ints, *displs = x->ints + s->p;
    for (int i = 0; i < s->p; i++) {
        counts[i] = i == a->root ? (int)s->msize : 0;
        displs[i] = 0;
    }
    const void *view = NULL;
    MG_TRY(mg_packed_view(a->recvbuf, a->recvcount, a->recvtype, &view));
    char *bytes = view ? (char *)(uintptr_t)view : x->msg; /* recvbuf itself, not const */
    if (!view && s->rank == a->root) local = mg_pack(a->recvbuf, a->recvcount, a->recvtype, bytes);
    MG_TRY(PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, bytes, counts, displs, MPI_BYTE, a->comm));
    if (!view && s->rank != a->root)
        MG_TRY(mg_unpack(bytes, a->recvbuf, a->recvcount, a->recvtype));
out:
    return rc != MPI_SUCCESS ? rc : local;
}

/* Counts and displacements, and the packed message (on every rank alike). */
void mg_bcast_as_allgatherv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_2p_ints(a, s, need);
    need->msg = (size_t)s->msize;
}

/* The root's count is msize bytes. */
unsigned mg_bcast_as_allgatherv_supports(const mg_args *a, const mg_shape *s) {
    (void)a;
    return MG_FITS_INT(s->msize) ? 0 : MPIGUIDE_DECLINE_OVERFLOW;
}

/* Bytes per rank of GL10: the message of msize bytes padded up to a multiple of p. */
static int64_t bcast_block(const mg_shape *s) {
    return (s->msize + s->p - 1) / s->p;
}

/* GL10: the root packs the message into a buffer of p blocks of ceil(msize / p) bytes (the
 * padding zeroed) and scatters it in place; every rank's block lands at its own offset, so the
 * Allgather runs in place too. Non-roots unpack the first msize bytes; when their buffer is
 * contiguous and no padding is needed, they receive into it directly. The root's buffer is
 * only read. */
int mg_bcast_as_scatter_allgather(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS, local = MPI_SUCCESS;
    if (s->msize == 0 || s->p == 1) return MPI_SUCCESS;
    int64_t blk = bcast_block(s);
    size_t n = (size_t)s->msize, padded = (size_t)(blk * s->p);
    char *full = x->msg;
    if (s->rank == a->root) {
        /* A failed pack (say, an invalid datatype) is returned after the collectives, which
         * the root still joins: the others would wait for it forever. */
        local = mg_pack(a->recvbuf, a->recvcount, a->recvtype, full);
        memset(full + n, 0, padded - n);
        MG_TRY(PMPI_Scatter(full, (int)blk, MPI_BYTE, MPI_IN_PLACE, (int)blk, MPI_BYTE, a->root,
                            a->comm));
    } else {
        const void *view = NULL;
        if (padded == n) MG_TRY(mg_packed_view(a->recvbuf, a->recvcount, a->recvtype, &view));
        if (view) full = (char *)view; /* recvbuf itself, which is not const */
        MG_TRY(PMPI_Scatter(NULL, (int)blk, MPI_BYTE, full + s->rank * blk, (int)blk, MPI_BYTE,
                            a->root, a->comm));
    }
    MG_TRY(PMPI_Allgather(MPI_IN_PLACE, (int)blk, MPI_BYTE, full, (int)blk, MPI_BYTE, a->comm));
    if (s->rank != a->root && full == x->msg)
        MG_TRY(mg_unpack(full, a->recvbuf, a->recvcount, a->recvtype));
out:
    return rc != MPI_SUCCESS ? rc : local;
}

void mg_bcast_as_scatter_allgather_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = 0;
    need->msg = s->p > 1 ? (size_t)(bcast_block(s) * s->p) : 0;
}

/* The padded message is packed and unpacked with int byte counts. */
unsigned mg_bcast_as_scatter_allgather_supports(const mg_args *a, const mg_shape *s) {
    (void)a;
    return MG_FITS_INT(bcast_block(s) * s->p) ? 0 : MPIGUIDE_DECLINE_OVERFLOW;
}
