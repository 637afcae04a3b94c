/* Mock-ups of MPI_Allgather: GL1 (Gather + Bcast), GL2 (Alltoall on p copies of the own block),
 * GL3 (Allreduce with MPI_BOR on a zeroed p-block vector), GL4 (Allgatherv). Block i lives at
 * recvbuf + i * recvcount * extent(recvtype); with MPI_IN_PLACE (all ranks) the own block is
 * already there. Scratch is packed (msize bytes per block) and moves as MPI_BYTE. */
#include "algorithms.h"
#include "algutil.h"
#include "packview.h"

/* Where this rank's block comes from: sendbuf, or its own slot of recvbuf when in place. */
typedef struct own_block {
    const void *buf;
    int count;
    MPI_Datatype type;
} own_block;

static own_block own_of(const mg_args *a, const mg_shape *s) {
    own_block b = {a->sendbuf, a->sendcount, a->sendtype};
    if (a->sendbuf == MPI_IN_PLACE) {
        b.buf = mg_elem(a->recvbuf, (int64_t)s->rank * a->recvcount, mg_extent(a->recvtype));
        b.count = a->recvcount;
        b.type = a->recvtype;
    }
    return b;
}

/* GL1: gather to rank 0, then broadcast the p blocks in recvbuf's own datatype. With
 * MPI_IN_PLACE rank 0 gathers in place and the others send their slot of recvbuf. */
int mg_allgather_as_gather_bcast(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    (void)x;
    int rc = MPI_SUCCESS;
    if (s->msize == 0) return MPI_SUCCESS;
    own_block b = own_of(a, s);
    const void *in = a->sendbuf == MPI_IN_PLACE && s->rank == 0 ? MPI_IN_PLACE : b.buf;
    MG_TRY(PMPI_Gather(in, b.count, b.type, a->recvbuf, a->recvcount, a->recvtype, 0, a->comm));
    MG_TRY(PMPI_Bcast(a->recvbuf, s->p * a->recvcount, a->recvtype, 0, a->comm));
out:
    return rc;
}

void mg_allgather_as_gather_bcast_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_none(a, s, need);
}

/* The Bcast count is p * recvcount elements; the inner Gather (of the call's datatype, in place
 * at root 0 when the call is) must not meet a known defect. */
unsigned mg_allgather_as_gather_bcast_supports(const mg_args *a, const mg_shape *s) {
    unsigned why = mg_supports_p_times_count(a, s);
    return why ? why
               : mg_inner_defect(s, MPIGUIDE_COLL_GATHER, s->count, a->sendbuf == MPI_IN_PLACE, 0);
}

/* The p blocks of recvbuf as packed bytes when they are contiguous, else NULL. */
static int recv_view(const mg_args *a, const mg_shape *s, char **view) {
    const void *v = NULL;
    int rc = mg_packed_view(a->recvbuf, s->p * a->recvcount, a->recvtype, &v);
    *view = (char *)(uintptr_t)v; /* recvbuf itself, which is not const */
    return rc;
}

/* GL2: p packed copies of the own block are sent with MPI_Alltoall; block j of the result is
 * rank j's block. Both sides move MPI_BYTE (a typed receive of bytes sent as MPI_BYTE fails in
 * MPICH 4.0 for structs of mixed basic types once a message is split): a contiguous recvbuf
 * receives the bytes directly, any other receives them into scratch and unpacks. */
int mg_allgather_as_alltoall(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    if (s->msize == 0) return MPI_SUCCESS;
    size_t n = (size_t)s->msize, total = (size_t)s->p * n;
    char *copies = x->msg, *view;
    own_block b = own_of(a, s);
    MG_TRY(recv_view(a, s, &view));
    MG_TRY(mg_pack(b.buf, b.count, b.type, copies));
    for (int j = 1; j < s->p; j++) memcpy(copies + (size_t)j * n, copies, n);
    char *result = view ? view : copies + total;
    MG_TRY(PMPI_Alltoall(copies, (int)n, MPI_BYTE, result, (int)n, MPI_BYTE, a->comm));
    if (!view) MG_TRY(mg_unpack(result, a->recvbuf, s->p * a->recvcount, a->recvtype));
out:
    return rc;
}

/* The p copies, and p received blocks for a non-contiguous recvbuf. */
void mg_allgather_as_alltoall_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = 0;
    need->msg = 2 * (size_t)s->p * (size_t)s->msize;
}

unsigned mg_allgather_as_alltoall_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_p_times_count(a, s);
}

/* GL3: a zeroed vector of p packed blocks holds the own block at rank * msize; the bitwise OR
 * over all ranks is the concatenation of all blocks. A contiguous recvbuf is that vector
 * itself (in place, the own block is already there); otherwise it lives in scratch and is
 * unpacked into recvbuf. */
int mg_allgather_as_allreduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    if (s->msize == 0) return MPI_SUCCESS;
    size_t n = (size_t)s->msize, mine = (size_t)s->rank * n;
    char *view;
    MG_TRY(recv_view(a, s, &view));
    char *all = view ? view : x->msg;
    if (!view || a->sendbuf != MPI_IN_PLACE) {
        own_block b = own_of(a, s);
        MG_TRY(mg_pack(b.buf, b.count, b.type, all + mine));
    }
    memset(all, 0, mine);
    memset(all + mine + n, 0, (size_t)(s->p - 1 - s->rank) * n);
    MG_TRY(PMPI_Allreduce(MPI_IN_PLACE, all, (int)(s->p * n), MPI_BYTE, MPI_BOR, a->comm));
    if (!view) MG_TRY(mg_unpack(all, a->recvbuf, s->p * a->recvcount, a->recvtype));
out:
    return rc;
}

void mg_allgather_as_allreduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = 0;
    need->msg = (size_t)s->p * (size_t)s->msize;
}

unsigned mg_allgather_as_allreduce_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_p_times_count(a, s);
}

/* GL4: an in-place MPI_Allgatherv of packed bytes, block i at i * msize. Bytes, because the ranks
 * may describe the same data with different datatypes (valid MPI), and both libraries size or
 * cut an Allgatherv in units of each rank's own datatype: Open MPI 4.1 by sendtype size times
 * the receive counts (ranks then choose different algorithms and deadlock), MPICH 4.0's ring in
 * pipeline chunks ("Message truncated", found by selftest --random with a vector of doubles on
 * one rank and plain doubles on the other). A contiguous recvbuf receives the bytes in place;
 * any other goes through scratch and is unpacked. */
int mg_allgather_as_allgatherv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    if (s->msize == 0) return MPI_SUCCESS;
    int n = (int)s->msize, *counts = x->ints, *displs = x->ints + s->p;
    for (int i = 0; i < s->p; i++) {
        counts[i] = n;
        displs[i] = i * n;
    }
    char *view;
    MG_TRY(recv_view(a, s, &view));
    char *all = view ? view : x->msg;
    if (!view || a->sendbuf != MPI_IN_PLACE) { /* the own block, packed into its slot */
        own_block b = own_of(a, s);
        MG_TRY(mg_pack(b.buf, b.count, b.type, all + (size_t)s->rank * (size_t)n));
    }
    MG_TRY(PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, all, counts, displs, MPI_BYTE, a->comm));
    if (!view) MG_TRY(mg_unpack(all, a->recvbuf, s->p * a->recvcount, a->recvtype));
out:
    return rc;
}

/* Counts and displacements, and p packed blocks (a need is the same on every rank, so it is
 * asked for whether or not this rank's recvbuf is contiguous). */
void mg_allgather_as_allgatherv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_2p_ints(a, s, need);
    need->msg = (size_t)s->p * (size_t)s->msize;
}

/* The displacements reach (p - 1) * msize bytes: p * msize bounds that on every rank. */
unsigned mg_allgather_as_allgatherv_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_p_times_count(a, s);
}
