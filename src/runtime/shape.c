/* The message-size rule of docs/dev/interfaces.md section 1 and the other values of a call that
 * every rank shares; selection, needs and predicates are computed from these alone. */
#include "call.h"
#include "mpi_defects.h"

int mg_shape_of(int coll, const mg_args *a, mg_shape *s) {
    int rc;
    *s = (mg_shape){0};
    s->msize = -1;
    s->type = MPI_DATATYPE_NULL;
    if ((rc = PMPI_Comm_test_inter(a->comm, &s->inter)) != MPI_SUCCESS) return rc;
    if ((rc = PMPI_Comm_size(a->comm, &s->p)) != MPI_SUCCESS) return rc;
    if ((rc = PMPI_Comm_rank(a->comm, &s->rank)) != MPI_SUCCESS) return rc;
    if (mg_coll_blocking(coll) == MPIGUIDE_COLL_BARRIER) {
        s->msize = 0;
        return MPI_SUCCESS;
    }
    unsigned f = mg_coll_flags(coll);
    /* Gatherv, Scatterv and Alltoallv select by p alone; their datatype arguments may be
     * insignificant (and MPI_DATATYPE_NULL) on some ranks, so they are not even looked at. */
    if (f & MG_CF_NOSIZE) return MPI_SUCCESS;
    MPI_Datatype t;
    mg_call_source(coll, a, s->rank, s->p, &s->count, &t);
    s->type = t;
    int tsize = 0;
    if ((rc = PMPI_Type_size(t, &tsize)) != MPI_SUCCESS) return rc;
    s->tsize = (size_t)tsize;
    s->msize = s->count * (int64_t)tsize;
    if (mg_coll_blocking(coll) == MPIGUIDE_COLL_ALLGATHERV)
        for (int i = 0; i < s->p; i++)
            if ((int64_t)a->recvcounts[i] * tsize > s->block)
                s->block = (int64_t)a->recvcounts[i] * tsize;
    if (f & MG_CF_REDUCTION) {
        MPI_Aint lb;
        if ((rc = PMPI_Type_get_extent(t, &lb, &s->extent)) != MPI_SUCCESS) return rc;
        if ((rc = PMPI_Type_get_true_extent(t, &s->true_lb, &s->true_extent)) != MPI_SUCCESS)
            return rc;
        if ((rc = PMPI_Op_commutative(a->op, &s->commute)) != MPI_SUCCESS) return rc;
        s->op_code = mg_op_code_of(a->op);
        s->predefined_op = s->op_code != 0;
        s->type_code = mg_type_code_of(t);
    }
    return MPI_SUCCESS;
}

int64_t mg_msize(int coll, const mg_args *a) {
    mg_shape s;
    return mg_shape_of(coll, a, &s) == MPI_SUCCESS ? s.msize : -1;
}
