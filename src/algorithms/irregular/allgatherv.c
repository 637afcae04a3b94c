/* Mock-up of MPI_Allgatherv by the padding guideline of Träff's irregular collectives: every
 * block padded to the largest, one MPI_Allgather of the padded blocks in packed scratch, each
 * block unpacked to its place. Every rank knows every count (recvcounts is significant on all
 * ranks and block i has the same signature bytes everywhere), so the largest block is a shared
 * value (mg_shape.block) and, unlike Gatherv's padding, needs no MPI_Allreduce to agree on it. */
#include "algorithms/algorithms.h"
#include "algorithms/algutil.h"

int mg_allgatherv_as_allgather(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int64_t most = s->block;
    if (most == 0) return MPI_SUCCESS; /* every block is empty: nothing moves */
    MPI_Aint lb, extent;
    MG_TRY(PMPI_Type_get_extent(a->recvtype, &lb, &extent));
    char *buf = x->msg, *mine = buf + (size_t)s->rank * (size_t)most;
    int inplace = a->sendbuf == MPI_IN_PLACE;
    if (inplace) /* this rank's block is already in recvbuf, at its place */
        MG_TRY(mg_pack((const char *)a->recvbuf + (MPI_Aint)a->rdispls[s->rank] * extent,
                       a->recvcounts[s->rank], a->recvtype, mine));
    else
        MG_TRY(mg_pack(a->sendbuf, a->sendcount, a->sendtype, mine));
    MG_TRY(PMPI_Allgather(MPI_IN_PLACE, 0, MPI_BYTE, buf, (int)most, MPI_BYTE, a->comm));
    for (int i = 0; i < s->p; i++) {
        if (i == s->rank && inplace) continue;
        MG_TRY(mg_unpack(buf + (size_t)i * (size_t)most,
                         (char *)a->recvbuf + (MPI_Aint)a->rdispls[i] * extent, a->recvcounts[i],
                         a->recvtype));
    }
out:
    return rc;
}

void mg_allgatherv_as_allgather_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->msg = (size_t)s->p * (size_t)s->block;
    need->ints = 0;
}

/* p padded blocks are moved with one int count of bytes. */
unsigned mg_allgatherv_as_allgather_supports(const mg_args *a, const mg_shape *s) {
    (void)a;
    return MG_FITS_INT((int64_t)s->p * s->block) ? 0 : MPIGUIDE_DECLINE_OVERFLOW;
}
