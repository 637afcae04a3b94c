/* Algorithms for MPI_Scatterv: TUW, the linear-time ordered-hypercube scatter on the gather tree
 * run backwards, and the padding guideline MPI_Scatterv <= MPI_Allreduce + MPI_Scatter. Needs
 * and predicates use p only; size-dependent choices follow an agreement step. */
#include "algorithms/algorithms.h"
#include "tuw.h"
#include <limits.h>

/* Bytes of this rank's block: the signature size of what it consumes. */
static int own_bytes(const mg_args *a, int rank, int64_t *bytes) {
    int size = 0, rc;
    if (rank == a->root) {
        rc = PMPI_Type_size(a->sendtype, &size);
        *bytes = (int64_t)a->sendcounts[rank] * size;
    } else {
        rc = PMPI_Type_size(a->recvtype, &size);
        *bytes = (int64_t)a->recvcount * size;
    }
    return rc;
}

/* 1 when the datatype's data does not fill its extent (or the extent its true extent). */
static int has_gaps(MPI_Datatype t) {
    MPI_Aint lb, extent, tlb, text;
    int size = 0;
    if (PMPI_Type_size(t, &size) != MPI_SUCCESS || PMPI_Type_get_extent(t, &lb, &extent) ||
        PMPI_Type_get_true_extent(t, &tlb, &text))
        return 1;
    return text != size || extent != size;
}

/* The root's own block goes straight from its place in sendbuf to recvbuf (nothing with
 * MPI_IN_PLACE). */
static int root_own_block(const mg_args *a, MPI_Aint extent) {
    if (a->recvbuf == MPI_IN_PLACE) return MPI_SUCCESS;
    const char *slot = (const char *)a->sendbuf + (MPI_Aint)a->sdispls[a->root] * extent;
    return mg_tcopy(slot, a->sendcounts[a->root], a->sendtype, a->recvbuf, a->recvcount,
                    a->recvtype);
}

/* TUW scatter: the same tree as the gather (built from the receive sizes). The root sends each
 * subtree's blocks from sendbuf; a non-root with children receives its subtree's blocks into
 * scratch in rank order, forwards the children's parts with non-blocking sends (largest subtree
 * first) and unpacks its own; a leaf receives straight into recvbuf. */
int mg_scatterv_as_tuw(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS, n = 0;
    MPI_Comm priv;
    mg_tuw_limits lim;
    mg_tuw_role role;
    MPI_Request req[MG_TUW_MAXLEV];
    int64_t mine = 0, off[MG_TUW_MAXLEV], own_off = 0;
    MPI_Aint lb, extent;
    if (s->p == 1) {
        MG_TRY(PMPI_Type_get_extent(a->sendtype, &lb, &extent));
        return root_own_block(a, extent);
    }
    mg_tuw_limits_of(&lim, s->p);
    MG_TRY(own_bytes(a, s->rank, &mine));
    MG_TRY(mg_tuw_comm(a->comm, &priv));
    MG_TRY(mg_tuw_construct(priv, a->root, mine, &lim, &role));
    if (s->rank == a->root) {
        MG_TRY(PMPI_Type_get_extent(a->sendtype, &lb, &extent));
        mg_tuw_root_io io = {
            0, (void *)a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, extent, priv, 0};
        int size = 0;
        MG_TRY(PMPI_Type_size(a->sendtype, &size));
        /* Own block while the sends are in flight would need the transfers split; the copy is
         * local and short next to them, so it goes first. */
        MG_TRY(root_own_block(a, extent));
        MG_TRY(mg_tuw_root_transfers(&io, s->p, a->root, &role, &lim, size, x->msg));
        goto out;
    }
    if (role.bytes == 0) goto out;
    int64_t total = mg_tuw_layout(s->rank, mine, &role, off, &own_off);
    if (total != role.bytes) {
        rc = MPI_ERR_INTERN; /* sizes disagree between ranks */
        goto out;
    }
    int busy = 0;
    for (int k = 0; k < role.nchild; k++) busy |= role.child[k].bytes > 0;
    if (!busy && role.parent != a->root && has_gaps(a->recvtype)) {
        /* a non-root parent forwards MPI_PACKED bytes: received into scratch and unpacked, as
         * MPICH 4.0.2 fails them straight into a datatype with gaps and mixed basic types
         * (mg_tuw_root_io.stage) */
        MG_TRY(PMPI_Recv(x->msg, (int)total, MPI_PACKED, role.parent, MG_TUW_TAG_DATA, priv,
                         MPI_STATUS_IGNORE));
        MG_TRY(mg_unpack(x->msg, a->recvbuf, a->recvcount, a->recvtype));
        goto out;
    }
    if (!busy) {
        MG_TRY(PMPI_Recv(a->recvbuf, a->recvcount, a->recvtype, role.parent, MG_TUW_TAG_DATA, priv,
                         MPI_STATUS_IGNORE));
        goto out;
    }
    if (total > lim.capacity) {
        rc = MPI_ERR_INTERN; /* the merge rule prevents this */
        goto out;
    }
    char *buf = x->msg;
    MG_TRY(PMPI_Recv(buf, (int)total, MPI_PACKED, role.parent, MG_TUW_TAG_DATA, priv,
                     MPI_STATUS_IGNORE));
    for (int k = role.nchild - 1; k >= 0; k--) {
        const mg_tuw_child *c = &role.child[k];
        if (!c->bytes) continue;
        MG_TRY(PMPI_Isend(buf + off[k], (int)c->bytes, MPI_PACKED, c->rank, MG_TUW_TAG_DATA, priv,
                          &req[n]));
        n++;
    }
    MG_TRY(mg_unpack(buf + own_off, a->recvbuf, a->recvcount, a->recvtype));
    MG_TRY(mg_tuw_wait(n, req));
    n = 0;
out:
    return rc;
}

void mg_scatterv_as_tuw_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->msg = mg_tuw_need(s->p);
    need->ints = 0;
}

unsigned mg_scatterv_as_tuw_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}

/* Padding guideline: agree on the largest block (MPI_Allreduce of one value), the root packs
 * the blocks padded to it into scratch, MPI_Scatter delivers them and every rank unpacks its
 * own. When p padded blocks do not fit the pool, every rank runs the library's MPI_Scatterv. */
int mg_scatterv_as_allreduce_scatter(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int64_t mine = 0, most = 0;
    MG_TRY(own_bytes(a, s->rank, &mine));
    MG_TRY(PMPI_Allreduce(&mine, &most, 1, MPI_INT64_T, MPI_MAX, a->comm));
    size_t cap = mg_pool.msg_bytes < (size_t)INT_MAX ? mg_pool.msg_bytes : (size_t)INT_MAX;
    if ((uint64_t)most * (uint64_t)s->p > cap) return mg_run_default(MPIGUIDE_COLL_SCATTERV, a);
    char *buf = x->msg;
    if (s->rank != a->root) {
        if (most > 0)
            MG_TRY(PMPI_Scatter(NULL, 0, MPI_BYTE, buf, (int)most, MPI_BYTE, a->root, a->comm));
        MG_TRY(mg_unpack(buf, a->recvbuf, a->recvcount, a->recvtype));
        goto out;
    }
    MPI_Aint lb, extent;
    MG_TRY(PMPI_Type_get_extent(a->sendtype, &lb, &extent));
    for (int i = 0; i < s->p; i++) {
        if (i == a->root) continue;
        MG_TRY(mg_pack((const char *)a->sendbuf + (MPI_Aint)a->sdispls[i] * extent,
                       a->sendcounts[i], a->sendtype, buf + (size_t)i * (size_t)most));
    }
    if (most > 0)
        MG_TRY(PMPI_Scatter(buf, (int)most, MPI_BYTE, MPI_IN_PLACE, 0, MPI_BYTE, a->root, a->comm));
    MG_TRY(root_own_block(a, extent));
out:
    return rc;
}

void mg_scatterv_as_allreduce_scatter_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a, (void)s;
    need->msg = mg_pool.msg_bytes; /* p * max block is known only after the Allreduce */
    need->ints = 0;
}

unsigned mg_scatterv_as_allreduce_scatter_supports(const mg_args *a, const mg_shape *s) {
    return mg_supports_any(a, s);
}
