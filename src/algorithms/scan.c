/* Mock-up of MPI_Scan: GL20 (Exscan + Reduce_local). Rank r > 0 combines the exclusive prefix
 * p_r = x_0 op ... op x_{r-1} with its own contribution as p_r op x_r (the prefix on the left,
 * so non-commutative ops keep rank order); rank 0's result is its own contribution. */
#include "algorithms.h"
#include "algutil.h"
#include "redutil.h"

/* PMPI_Reduce_local(in, inout) computes inout = in op inout. Two ways to get prefix op own:
 * - commutative op, separate sendbuf: the prefix lands in recvbuf and own op prefix (equal to
 *   prefix op own) is computed in place there; no scratch.
 * - otherwise the prefix lands in scratch and recvbuf holds (a copy of) the own contribution,
 *   so Reduce_local(prefix, recvbuf) leaves prefix op own in recvbuf. With MPI_IN_PLACE
 *   recvbuf already holds the own contribution and the Exscan reads it as its send buffer. */
int mg_scan_as_exscan_reducelocal(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS;
    int n = a->recvcount;
    if (n == 0) return MPI_SUCCESS;
    if (s->commute && a->sendbuf != MPI_IN_PLACE) {
        MG_TRY(PMPI_Exscan(a->sendbuf, a->recvbuf, n, a->recvtype, a->op, a->comm));
        if (s->rank == 0)
            MG_TRY(mg_tcopy(a->sendbuf, n, a->recvtype, a->recvbuf, n, a->recvtype));
        else
            MG_TRY(PMPI_Reduce_local(a->sendbuf, a->recvbuf, n, a->recvtype, a->op));
        goto out;
    }
    void *prefix = mg_typed(x->msg, s);
    MG_TRY(PMPI_Exscan(mg_red_input(a), prefix, n, a->recvtype, a->op, a->comm));
    if (a->sendbuf != MPI_IN_PLACE)
        MG_TRY(mg_tcopy(a->sendbuf, n, a->recvtype, a->recvbuf, n, a->recvtype));
    if (s->rank > 0) MG_TRY(PMPI_Reduce_local(prefix, a->recvbuf, n, a->recvtype, a->op));
out:
    return rc;
}

/* The prefix needs scratch of n elements unless the op is commutative and the input is in a
 * separate sendbuf (MPI_IN_PLACE and the op are the same on all ranks). */
void mg_scan_as_exscan_reducelocal_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    need->ints = 0;
    need->msg = s->commute && a->sendbuf != MPI_IN_PLACE ? 0 : mg_span(s, s->count);
}

/* The inner Exscan reads the call's input (recvbuf with MPI_IN_PLACE) as its send buffer. */
unsigned mg_scan_as_exscan_reducelocal_supports(const mg_args *a, const mg_shape *s) {
    (void)a;
    unsigned why = mg_red_layout(s, s->count, s->count);
    return why ? why : mg_inner_defect(s, MPIGUIDE_COLL_EXSCAN, s->count, 0, 0);
}
