/* MPIGUIDE_VERIFY=1: every call that runs a mock-up first runs the library's default on the
 * same input and compares. The receive side of this rank is packed (signature bytes, so
 * derived datatypes and gaps are handled by MPI) into one buffer before the default runs, the
 * default's result into a second, the input is restored, the mock-up runs, and its packed
 * result is compared with the default's. The caller keeps the mock-up's result. All ranks
 * agree first that the outputs fit the buffers, so they all run the same collectives.
 * Floating-point reductions may legitimately differ by reassociation. Debugging only: slow. */
#include "intercept.h"
#include "util/diag.h"
#include "runtime/scratch.h"
#include <limits.h>

/* The receive-side regions of this rank: `n` blocks of `count` elements of `type`, block i at
 * base + off[i] bytes (off NULL: consecutive blocks of count * extent). */
typedef struct region {
    void *base;
    int n, count;
    MPI_Datatype type;
    const int *vcounts, *vdispls; /* Gatherv root: per-block counts and displacements */
} region;

static void output_region(int coll, const mg_args *a, const mg_shape *s, region *r) {
    *r = (region){a->recvbuf, 1, a->recvcount, a->recvtype, NULL, NULL};
    int root = s->rank == a->root;
    switch (coll) {
    case MPIGUIDE_COLL_ALLGATHER:
    case MPIGUIDE_COLL_ALLTOALL:
        r->n = s->p;
        break;
    case MPIGUIDE_COLL_GATHER:
        r->n = root ? s->p : 0;
        break;
    case MPIGUIDE_COLL_REDUCE:
        r->n = root ? 1 : 0;
        break;
    case MPIGUIDE_COLL_REDUCE_SCATTER:
        r->count = a->recvcounts[s->rank];
        break;
    case MPIGUIDE_COLL_SCATTER:
    case MPIGUIDE_COLL_SCATTERV:
        r->n = a->recvbuf == MPI_IN_PLACE ? 0 : 1;
        break;
    case MPIGUIDE_COLL_GATHERV:
        r->n = root ? s->p : 0;
        r->vcounts = a->recvcounts;
        r->vdispls = a->rdispls;
        break;
    default: /* Allreduce, Bcast, Scan, Reduce_scatter_block: count elements at recvbuf */
        break;
    }
}

static void *block_at(const region *r, int i, MPI_Aint extent, int *count) {
    *count = r->vcounts ? r->vcounts[i] : r->count;
    MPI_Aint off = r->vdispls ? (MPI_Aint)r->vdispls[i] * extent : (MPI_Aint)i * r->count * extent;
    return (char *)r->base + off;
}

/* Packs (unpack = 0) or unpacks the region to/from buf; *bytes is the packed length. */
static int move(const region *r, MPI_Comm comm, void *buf, int cap, int *bytes, int unpack) {
    MPI_Aint lb, extent;
    int rc = PMPI_Type_get_extent(r->type, &lb, &extent), pos = 0, count;
    for (int i = 0; i < r->n && rc == MPI_SUCCESS; i++) {
        void *at = block_at(r, i, extent, &count);
        rc = unpack ? PMPI_Unpack(buf, cap, &pos, at, count, r->type, comm)
                    : PMPI_Pack(at, count, r->type, buf, cap, &pos, comm);
    }
    *bytes = pos;
    return rc;
}

static int packed_size(const region *r, MPI_Comm comm, int64_t *bytes) {
    MPI_Aint lb, extent;
    int rc = PMPI_Type_get_extent(r->type, &lb, &extent), count, one;
    *bytes = 0;
    for (int i = 0; i < r->n && rc == MPI_SUCCESS; i++) {
        block_at(r, i, extent, &count);
        rc = PMPI_Pack_size(count, r->type, comm, &one);
        *bytes += one;
    }
    return rc;
}

int mg_verify_run(int alg, const mg_args *a, const mg_shape *s, int64_t msize, int *ran) {
    int coll = mg_alg_coll(alg), rc, fits, all = 0, saved = 0, ref = 0, got = 0;
    region r;
    output_region(coll, a, s, &r);
    int64_t need = 0;
    rc = packed_size(&r, a->comm, &need);
    fits = rc == MPI_SUCCESS && need <= (int64_t)mg_rt.verify_bytes && need <= INT_MAX;
    rc = PMPI_Allreduce(&fits, &all, 1, MPI_INT, MPI_MIN, a->comm);
    if (rc != MPI_SUCCESS) return rc;
    if (!all) return mg_dispatch_complete(alg, a, s, ran);
    int cap = (int)mg_rt.verify_bytes;
    void *keep = mg_rt.verify_buf[0], *dflt = mg_rt.verify_buf[1];
    if ((rc = move(&r, a->comm, keep, cap, &saved, 0)) != MPI_SUCCESS) return rc;
    if ((rc = mg_run_default(coll, a)) != MPI_SUCCESS) return rc;
    if ((rc = move(&r, a->comm, dflt, cap, &ref, 0)) != MPI_SUCCESS) return rc;
    if ((rc = move(&r, a->comm, keep, saved, &saved, 1)) != MPI_SUCCESS) return rc;
    if ((rc = mg_dispatch_complete(alg, a, s, ran)) != MPI_SUCCESS) return rc;
    if ((rc = move(&r, a->comm, keep, cap, &got, 0)) != MPI_SUCCESS) return rc;
    mg_count(coll, MG_N_VERIFIED);
    int at = -1;
    for (int i = 0; i < ref && at < 0; i++)
        if (((unsigned char *)keep)[i] != ((unsigned char *)dflt)[i]) at = i;
    if (got != ref || at >= 0) {
        static int shown;
        mg_count(coll, MG_N_MISMATCH);
        if (shown++ < 10)
            mg_warning("MPIGUIDE_VERIFY",
                       "rank %d: %s msize %lld p %d: %s differs from the default at byte %d",
                       mg_rt.rank, mg_coll_name(coll), (long long)msize, s->p, mg_alg_name(alg),
                       at < 0 ? ref : at);
    }
    return MPI_SUCCESS;
}
