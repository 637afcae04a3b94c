/* Mock-up of MPI_Alltoallv by the padding guideline of Träff's irregular collectives: the ranks
 * agree on the largest block (one MPI_Allreduce: a rank knows only its own counts), every block
 * is packed padded to it, one MPI_Alltoall moves them, each is unpacked to its place. */
#include "algorithms/algorithms.h"
#include "algorithms/algutil.h"
#include <limits.h>

int mg_alltoallv_as_allreduce_alltoall(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS, size = 0;
    /* with MPI_IN_PLACE the data to send is in recvbuf, described by the receive side */
    int inplace = a->sendbuf == MPI_IN_PLACE;
    const char *sbuf = inplace ? a->recvbuf : a->sendbuf;
    const int *scounts = inplace ? a->recvcounts : a->sendcounts;
    const int *sdispls = inplace ? a->rdispls : a->sdispls;
    MPI_Datatype stype = inplace ? a->recvtype : a->sendtype;
    MPI_Aint lb, sext, rext;
    int64_t mine = 0, most = 0;
    MG_TRY(PMPI_Type_size(stype, &size));
    for (int j = 0; j < s->p; j++)
        if ((int64_t)scounts[j] * size > mine) mine = (int64_t)scounts[j] * size;
    MG_TRY(PMPI_Allreduce(&mine, &most, 1, MPI_INT64_T, MPI_MAX, a->comm));
    /* after the agreement every rank knows `most`: all fall back together */
    size_t cap = mg_pool.msg_bytes < (size_t)INT_MAX ? mg_pool.msg_bytes : (size_t)INT_MAX;
    if (2 * (uint64_t)most * (uint64_t)s->p > cap)
        return mg_run_default(MPIGUIDE_COLL_ALLTOALLV, a);
    if (most == 0) return MPI_SUCCESS; /* every block is empty */
    MG_TRY(PMPI_Type_get_extent(stype, &lb, &sext));
    MG_TRY(PMPI_Type_get_extent(a->recvtype, &lb, &rext));
    char *out = x->msg, *in = out + (size_t)s->p * (size_t)most;
    for (int j = 0; j < s->p; j++)
        MG_TRY(mg_pack(sbuf + (MPI_Aint)sdispls[j] * sext, scounts[j], stype,
                       out + (size_t)j * (size_t)most));
    MG_TRY(PMPI_Alltoall(out, (int)most, MPI_BYTE, in, (int)most, MPI_BYTE, a->comm));
    for (int i = 0; i < s->p; i++)
        MG_TRY(mg_unpack(in + (size_t)i * (size_t)most,
                         (char *)a->recvbuf + (MPI_Aint)a->rdispls[i] * rext, a->recvcounts[i],
                         a->recvtype));
out:
    return rc;
}

void mg_alltoallv_as_allreduce_alltoall_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a, (void)s;
    need->msg = mg_pool.msg_bytes; /* 2 p * max block is known only after the Allreduce */
    need->ints = 0;
}

unsigned mg_alltoallv_as_allreduce_alltoall_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
