/* Mock-ups of MPI_Gather: GL11 (Allgather, non-roots receive into scratch), GL12 (Gatherv),
 * GL13 (Reduce with MPI_BOR on a zeroed p-block vector). Block i of the root's recvbuf lives
 * at recvbuf + i * recvcount * extent(recvtype); MPI_IN_PLACE is the root's alone and means
 * its block is already there. Scratch is packed (msize bytes per block), moved as MPI_BYTE. */
#include "algorithms.h"
#include "algutil.h"
#include "runtime/mpi_defects.h"
#include "packview.h"

/* The root's own slot of recvbuf. */
static const void *root_slot(const mg_args *a, const mg_shape *s) {
    return mg_elem(a->recvbuf, (int64_t)s->rank * a->recvcount, mg_extent(a->recvtype));
}

/* GL11: an in-place MPI_Allgather of packed blocks (MPI_BYTE on every rank: a typed receive of
 * bytes sent as MPI_BYTE fails in MPICH 4.0 for structs of mixed basic types once a message is
 * split). Each rank packs its block at rank * msize; non-roots gather into scratch they then
 * ignore; the root gathers straight into a contiguous recvbuf (its in-place block is already
 * there), or into scratch it unpacks into recvbuf. */
int mg_gather_as_allgather(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    if (s->msize == 0) return MPI_SUCCESS;
    size_t n = (size_t)s->msize, mine = (size_t)s->rank * n;
    const void *view = NULL;
    int root = s->rank == a->root;
    if (root) MG_TRY(mg_packed_view(a->recvbuf, s->p * a->recvcount, a->recvtype, &view));
    char *all = view ? (char *)(uintptr_t)view : x->msg; /* recvbuf is not const */
    if (!root || a->sendbuf != MPI_IN_PLACE)
        MG_TRY(mg_pack(a->sendbuf, a->sendcount, a->sendtype, all + mine));
    else if (!view)
        MG_TRY(mg_pack(root_slot(a, s), a->recvcount, a->recvtype, all + mine));
    MG_TRY(PMPI_Allgather(MPI_IN_PLACE, (int)n, MPI_BYTE, all, (int)n, MPI_BYTE, a->comm));
    if (root && !view) MG_TRY(mg_unpack(all, a->recvbuf, s->p * a->recvcount, a->recvtype));
out:
    return rc;
}

/* p packed blocks on non-roots and on a non-contiguous root. */
void mg_gather_as_allgather_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = 0;
    need->msg = (size_t)s->p * (size_t)s->msize;
}

unsigned mg_gather_as_allgather_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_p_times_count(a, s);
}

/* GL12: the root receives recvcount elements from rank i at i * recvcount; non-roots' counts
 * are not significant and stay unset. MPI_IN_PLACE means the same for Gatherv. */
int mg_gather_as_gatherv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    if (s->msize == 0) return MPI_SUCCESS;
    int *counts = x->ints, *displs = x->ints + s->p;
    if (s->rank == a->root)
        for (int i = 0; i < s->p; i++) {
            counts[i] = a->recvcount;
            displs[i] = i * a->recvcount;
        }
    return PMPI_Gatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, counts, displs,
                        a->recvtype, a->root, a->comm);
}

/* Only the root uses the arrays, but a need is the maximum over ranks. */
void mg_gather_as_gatherv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    mg_need_2p_ints(a, s, need);
}

/* The displacements reach (p - 1) * recvcount; p * msize bounds that. */
unsigned mg_gather_as_gatherv_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_p_times_count(a, s);
}

/* The root of GL13 reduces in place unless that runs into a known defect of the running MPI
 * (src/defects/known.txt: MPICH 4.0 to 4.1.1 crash in MPI_Reduce with MPI_IN_PLACE at a root
 * other than 0, pmodels/mpich#6540); then it reduces into a second scratch vector. The inner
 * call reduces p * msize bytes (MPI_BYTE, MPI_BOR): shared values only. */
static int reduce_in_place_ok(const mg_args *a, const mg_shape *s) {
    mg_shape bytes = *s;
    bytes.extent = bytes.true_extent = 1;
    bytes.true_lb = 0;
    bytes.tsize = 1;
    bytes.commute = bytes.predefined_op = 1;
    bytes.op_code = mg_op_code_of(MPI_BOR);
    bytes.type_code = mg_type_code_of(MPI_BYTE);
    bytes.type = MPI_BYTE;
    mg_facts f;
    mg_facts_inner(&bytes, MPIGUIDE_COLL_REDUCE, (int64_t)s->p * s->msize, 1, a->root, &f);
    return mg_defect_hit(&f) == NULL;
}

/* GL13: every rank zeroes p packed blocks and packs its own at rank * msize; the MPI_BOR
 * reduction to the root is the concatenation. A root whose recvbuf is contiguous receives it
 * there directly; otherwise it reduces in place (or into a second vector, see above) and
 * unpacks. */
int mg_gather_as_reduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    if (s->msize == 0) return MPI_SUCCESS;
    size_t n = (size_t)s->msize, mine = (size_t)s->rank * n;
    int total = (int)(s->p * n);
    char *all = x->msg;
    memset(all, 0, mine);
    memset(all + mine + n, 0, (size_t)(s->p - 1 - s->rank) * n);
    if (s->rank == a->root && a->sendbuf == MPI_IN_PLACE)
        MG_TRY(mg_pack(root_slot(a, s), a->recvcount, a->recvtype, all + mine));
    else
        MG_TRY(mg_pack(a->sendbuf, a->sendcount, a->sendtype, all + mine));
    if (s->rank != a->root) {
        MG_TRY(PMPI_Reduce(all, NULL, total, MPI_BYTE, MPI_BOR, a->root, a->comm));
        goto out;
    }
    const void *view = NULL;
    MG_TRY(mg_packed_view(a->recvbuf, s->p * a->recvcount, a->recvtype, &view));
    if (view) { /* recvbuf itself, which is not const */
        MG_TRY(
            PMPI_Reduce(all, (void *)(uintptr_t)view, total, MPI_BYTE, MPI_BOR, a->root, a->comm));
        goto out;
    }
    char *result = all;
    if (reduce_in_place_ok(a, s)) {
        MG_TRY(PMPI_Reduce(MPI_IN_PLACE, all, total, MPI_BYTE, MPI_BOR, a->root, a->comm));
    } else {
        result = all + s->p * n;
        MG_TRY(PMPI_Reduce(all, result, total, MPI_BYTE, MPI_BOR, a->root, a->comm));
    }
    MG_TRY(mg_unpack(result, a->recvbuf, s->p * a->recvcount, a->recvtype));
out:
    return rc;
}

/* p packed blocks everywhere; a second vector for the root when in-place is unsafe. */
void mg_gather_as_reduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    need->ints = 0;
    need->msg = (size_t)s->p * (size_t)s->msize * (reduce_in_place_ok(a, s) ? 1 : 2);
}

unsigned mg_gather_as_reduce_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_p_times_count(a, s);
}
