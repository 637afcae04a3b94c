/* Algorithms for MPI_Gatherv: TUW, Träff's linear-time ordered-hypercube gather, and the
 * padding guideline MPI_Gatherv <= MPI_Allreduce + MPI_Gather. Needs and predicates use p only:
 * non-roots do not know the total size; size-dependent choices follow an agreement step. */
#include "algorithms/algorithms.h"
#include "tuw.h"
#include <limits.h>

/* Bytes of this rank's block: the signature size of what it contributes. */
static int own_bytes(const mg_args *a, int rank, int64_t *bytes) {
    int size = 0, rc;
    if (rank == a->root) {
        rc = PMPI_Type_size(a->recvtype, &size);
        *bytes = (int64_t)a->recvcounts[rank] * size;
    } else {
        rc = PMPI_Type_size(a->sendtype, &size);
        *bytes = (int64_t)a->sendcount * size;
    }
    return rc;
}

/* The root's own block goes straight from sendbuf to its place (nothing with MPI_IN_PLACE). */
static int root_own_block(const mg_args *a, MPI_Aint extent) {
    if (a->sendbuf == MPI_IN_PLACE) return MPI_SUCCESS;
    char *slot = (char *)a->recvbuf + (MPI_Aint)a->rdispls[a->root] * extent;
    return mg_tcopy(a->sendbuf, a->sendcount, a->sendtype, slot, a->recvcounts[a->root],
                    a->recvtype);
}

/* TUW: construction, then the data phase. A non-root with children receives them with
 * non-blocking receives straight into their places in its scratch buffer (blocks stay in rank
 * order), packs its own block in between, and sends the lot as one message; a leaf sends from
 * its user buffer. The root receives into recvbuf (mg_tuw_root_transfers). */
int mg_gatherv_as_tuw(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS, n = 0;
    MPI_Comm priv;
    mg_tuw_limits lim;
    mg_tuw_role role;
    MPI_Request req[MG_TUW_MAXLEV];
    int64_t mine = 0, off[MG_TUW_MAXLEV], own_off = 0;
    MPI_Aint lb, extent;
    if (s->p == 1) {
        MG_TRY(PMPI_Type_get_extent(a->recvtype, &lb, &extent));
        return root_own_block(a, extent);
    }
    mg_tuw_limits_of(&lim, s->p);
    MG_TRY(own_bytes(a, s->rank, &mine));
    MG_TRY(mg_tuw_comm(a->comm, &priv));
    MG_TRY(mg_tuw_construct(priv, a->root, mine, &lim, &role));
    if (s->rank == a->root) {
        MG_TRY(PMPI_Type_get_extent(a->recvtype, &lb, &extent));
        MG_TRY(root_own_block(a, extent));
        int size = 0;
        MG_TRY(PMPI_Type_size(a->recvtype, &size));
        MPI_Aint tlb, text;
        MG_TRY(PMPI_Type_get_true_extent(a->recvtype, &tlb, &text));
        /* packed data goes into a datatype with gaps through scratch (mg_tuw_root_io.stage) */
        mg_tuw_root_io io = {
            1,           a->recvbuf, a->recvcounts, a->rdispls,
            a->recvtype, extent,     priv,          text != size || extent != size};
        MG_TRY(mg_tuw_root_transfers(&io, s->p, a->root, &role, &lim, size, x->msg));
        goto out;
    }
    if (role.bytes == 0) goto out; /* an empty subtree: no message at all */
    int64_t total = mg_tuw_layout(s->rank, mine, &role, off, &own_off);
    if (total != role.bytes) {
        rc = MPI_ERR_INTERN; /* sizes disagree between ranks */
        goto out;
    }
    int busy = 0;
    for (int k = 0; k < role.nchild; k++) busy |= role.child[k].bytes > 0;
    if (!busy) {
        MG_TRY(
            PMPI_Send(a->sendbuf, a->sendcount, a->sendtype, role.parent, MG_TUW_TAG_DATA, priv));
        goto out;
    }
    if (total > lim.capacity) {
        rc = MPI_ERR_INTERN; /* the merge rule prevents this */
        goto out;
    }
    char *buf = x->msg;
    for (int k = 0; k < role.nchild; k++) {
        const mg_tuw_child *c = &role.child[k];
        if (!c->bytes) continue;
        MG_TRY(PMPI_Irecv(buf + off[k], (int)c->bytes, MPI_PACKED, c->rank, MG_TUW_TAG_DATA, priv,
                          &req[n]));
        n++;
    }
    MG_TRY(mg_pack(a->sendbuf, a->sendcount, a->sendtype, buf + own_off));
    MG_TRY(mg_tuw_wait(n, req));
    n = 0;
    MG_TRY(PMPI_Send(buf, (int)total, MPI_PACKED, role.parent, MG_TUW_TAG_DATA, priv));
out:
    return rc;
}

void mg_gatherv_as_tuw_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->msg = mg_tuw_need(s->p);
    need->ints = 0;
}

unsigned mg_gatherv_as_tuw_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

/* Padding guideline: agree on the largest block (MPI_Allreduce of one value), gather blocks
 * padded to it with MPI_Gather into scratch, and place them per the root's displacements.
 * When p padded blocks do not fit the pool, every rank (all know the maximum now) runs the
 * library's MPI_Gatherv instead. */
int mg_gatherv_as_allreduce_gather(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int64_t mine = 0, most = 0;
    MG_TRY(own_bytes(a, s->rank, &mine));
    MG_TRY(PMPI_Allreduce(&mine, &most, 1, MPI_INT64_T, MPI_MAX, a->comm));
    size_t cap = mg_pool.msg_bytes < (size_t)INT_MAX ? mg_pool.msg_bytes : (size_t)INT_MAX;
    if ((uint64_t)most * (uint64_t)s->p > cap) return mg_run_default(MPIGUIDE_COLL_GATHERV, a);
    char *buf = x->msg;
    if (s->rank != a->root) {
        MG_TRY(mg_pack(a->sendbuf, a->sendcount, a->sendtype, buf));
        if (most > 0)
            MG_TRY(PMPI_Gather(buf, (int)most, MPI_BYTE, NULL, 0, MPI_BYTE, a->root, a->comm));
        goto out;
    }
    MPI_Aint lb, extent;
    MG_TRY(PMPI_Type_get_extent(a->recvtype, &lb, &extent));
    if (most > 0)
        MG_TRY(PMPI_Gather(MPI_IN_PLACE, 0, MPI_BYTE, buf, (int)most, MPI_BYTE, a->root, a->comm));
    MG_TRY(root_own_block(a, extent));
    for (int i = 0; i < s->p; i++) {
        if (i == a->root) continue;
        MG_TRY(mg_unpack(buf + (size_t)i * (size_t)most,
                         (char *)a->recvbuf + (MPI_Aint)a->rdispls[i] * extent, a->recvcounts[i],
                         a->recvtype));
    }
out:
    return rc;
}

void mg_gatherv_as_allreduce_gather_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a, (void)s;
    need->msg = mg_pool.msg_bytes; /* p * max block is known only after the Allreduce */
    need->ints = 0;
}

unsigned mg_gatherv_as_allreduce_gather_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
