/* Mock-ups of MPI_Reduce_scatter (PGMPI): Allreduce with each rank keeping its piece, and
 * Reduce + Scatterv. The input is the whole vector of N = sum of recvcounts elements (in
 * recvbuf when every rank passes MPI_IN_PLACE); rank i receives recvcounts[i] elements. */
#include "algorithms.h"
#include "algutil.h"
#include "redutil.h"

/* Elements before rank r's piece. */
static int64_t offset_of(const int *counts, int r) {
    int64_t at = 0;
    for (int i = 0; i < r; i++) at += counts[i];
    return at;
}

/* The smallest piece any rank receives (every rank's receive buffer holds at least this). */
static int64_t smallest(const int *counts, int p) {
    int64_t m = counts[0];
    for (int i = 1; i < p; i++)
        if (counts[i] < m) m = counts[i];
    return m;
}

/* The whole reduced vector on every rank, in scratch; each rank copies out its piece. With
 * MPI_IN_PLACE only the piece at the start of recvbuf is overwritten. */
int mg_reducescatter_as_allreduce(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int mine = a->recvcounts[s->rank];
    if (s->count == 0) return MPI_SUCCESS;
    void *full = mg_typed(x->msg, s);
    MG_TRY(PMPI_Allreduce(mg_red_input(a), full, (int)s->count, a->recvtype, a->op, a->comm));
    MG_TRY(mg_tcopy(mg_elem(full, offset_of(a->recvcounts, s->rank), s->extent), mine, a->recvtype,
                    a->recvbuf, mine, a->recvtype));
out:
    return rc;
}

void mg_reducescatter_as_allreduce_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = 0;
    need->msg = mg_span(s, s->count);
}

unsigned mg_reducescatter_as_allreduce_supports(const mg_args *a, const mg_shape *s) {
    unsigned why = mg_red_layout(s, s->count, smallest(a->recvcounts, s->p));
    return why ? why : mg_inner_defect(s, MPIGUIDE_COLL_ALLREDUCE, s->count, 0, 0);
}

/* The whole vector is reduced to rank 0 into scratch and scattered in the pieces of
 * recvcounts (displacements in the int pool). */
int mg_reducescatter_as_reduce_scatterv(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int *displs = x->ints;
    if (s->count == 0) return MPI_SUCCESS;
    void *full = mg_typed(x->msg, s);
    for (int i = 0, at = 0; i < s->p; at += a->recvcounts[i], i++) displs[i] = at;
    MG_TRY(PMPI_Reduce(mg_red_input(a), full, (int)s->count, a->recvtype, a->op, 0, a->comm));
    MG_TRY(PMPI_Scatterv(full, a->recvcounts, displs, a->recvtype, a->recvbuf,
                         a->recvcounts[s->rank], a->recvtype, 0, a->comm));
out:
    return rc;
}

/* N elements at the root of the inner Reduce (rank 0), p displacements. */
void mg_reducescatter_as_reduce_scatterv_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = (size_t)s->p * sizeof(int);
    need->msg = mg_span(s, s->count);
}

unsigned mg_reducescatter_as_reduce_scatterv_supports(const mg_args *a, const mg_shape *s) {
    unsigned why = mg_red_layout(s, s->count, smallest(a->recvcounts, s->p));
    return why ? why : mg_inner_defect(s, MPIGUIDE_COLL_REDUCE, s->count, 0, 0);
}
