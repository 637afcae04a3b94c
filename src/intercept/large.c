/* MPI-4 large-count wrappers (MPI_Allreduce_c, ...) where the MPI has them; MPICH's mpi_f08
 * binding calls these. A call whose message size (docs/dev/interfaces.md section 1, identical on
 * all ranks) fits int is narrowed to the int form and selected exactly like MPI_Allreduce; larger
 * calls run the library's large-count default and count as large_count. */
#include "intercept.h"
#include <limits.h>

#if MPI_VERSION >= 4

typedef struct mg_largs {
    const void *sendbuf;
    void *recvbuf;
    MPI_Count sendcount, recvcount;
    const MPI_Count *recvcounts;
    MPI_Datatype sendtype, recvtype;
    MPI_Op op;
    int root;
    MPI_Comm comm;
} mg_largs;

static inline mg_largs mg_lfill(const void *sendbuf, void *recvbuf, MPI_Count sendcount,
                                MPI_Count recvcount, const MPI_Count *recvcounts,
                                MPI_Datatype sendtype, MPI_Datatype recvtype, MPI_Op op, int root,
                                MPI_Comm comm) {
    mg_largs l = {sendbuf,  recvbuf,  sendcount, recvcount, recvcounts,
                  sendtype, recvtype, op,        root,      comm};
    return l;
}

#define MAXP 1024 /* Reduce_scatter_c narrows its counts on the stack up to this size */

/* A count of a call whose message size fits int fits too, unless its datatype is empty (size
 * 0): then no data moves and 0 elements are equivalent. */
static inline int narrow(MPI_Count c) {
    return c <= INT_MAX ? (int)c : 0;
}

/* Selects for a large-count call; 1 with *rc when a mock-up ran. *ci: what the accounting
 * needs (msize -1 when it is not known). */
static __attribute__((noinline)) int large_call(int coll, const mg_largs *l, int *rc,
                                                mg_callinfo *ci) {
    int p, rank, inter;
    int ibuf[MAXP];
    MPI_Count count = l->recvcount, tsize = 0;
    MPI_Datatype t = l->recvtype;
    *ci = (mg_callinfo){-1, 0, MPI_DATATYPE_NULL, 0, 0, NULL, MG_SEL_NONE, 0};
    if (l->comm == MPI_COMM_NULL || PMPI_Comm_test_inter(l->comm, &inter) != MPI_SUCCESS ||
        PMPI_Comm_size(l->comm, &p) != MPI_SUCCESS || PMPI_Comm_rank(l->comm, &rank) != MPI_SUCCESS)
        return 0; /* the default reports the error */
    if (inter) {
        mg_count(coll, MG_N_TOTAL);
        return 0;
    }
    switch (mg_size_source_of(coll, rank == l->root)) { /* the message-size rule, catalog.h */
    case MG_SIZE_SEND:
        count = l->sendcount, t = l->sendtype;
        break;
    case MG_SIZE_RECVCOUNTS:
        if (p > MAXP) goto large;
        count = 0;
        for (int i = 0; i < p; i++) {
            if (l->recvcounts[i] < 0 || l->recvcounts[i] > INT_MAX) goto large;
            count += l->recvcounts[i];
            ibuf[i] = (int)l->recvcounts[i];
        }
        break;
    default:
        break;
    }
    if (count < 0 || PMPI_Type_size_c(t, &tsize) != MPI_SUCCESS || tsize < 0) goto large;
    if (tsize && count > INT_MAX / tsize) goto large;
    mg_args a = mg_fill(l->sendbuf, l->recvbuf, narrow(l->sendcount), narrow(l->recvcount), NULL,
                        NULL, coll == MPIGUIDE_COLL_REDUCE_SCATTER ? ibuf : NULL, NULL, l->sendtype,
                        l->recvtype, l->op, l->root, l->comm, NULL);
    return mg_intercept(coll, &a, rc, ci);
large:
    mg_count(coll, MG_N_TOTAL);
    mg_count(coll, MG_N_LARGE);
    if (mg_acct_on && count >= 0 && tsize > 0 && count <= INT64_MAX / tsize) {
        ci->msize = mg_coll_sizeless(coll) ? 0 : (int64_t)(count * tsize);
        ci->esize = mg_coll_sizeless(coll) ? 0 : (int)tsize;
        ci->type = mg_coll_sizeless(coll) ? MPI_DATATYPE_NULL : t;
        ci->p = p, ci->rank = rank;
        ci->e = mg_threads ? NULL : mg_comm_info(l->comm);
    }
    return 0;
}

/* Accounts a large-count call (MPIGUIDE_RECORD, the report's coverage). */
static __attribute__((noinline)) void large_note(int coll, const mg_largs *l, const mg_callinfo *ci,
                                                 double t0) {
    double t1 = PMPI_Wtime();
    mg_args a = mg_fill(l->sendbuf, l->recvbuf, 0, 0, NULL, NULL, NULL, NULL, l->sendtype,
                        l->recvtype, l->op, l->root, l->comm, NULL);
    mg_record_note(coll, &a, ci, t0, t1);
}

#define MG_LARGE(ID, Name, PARAMS, ARGS, FILL)                                                     \
    static MG_SLOW int mg_slow_##Name##_c PARAMS {                                                 \
        mg_largs l = mg_lfill FILL;                                                                \
        int rc;                                                                                    \
        mg_callinfo ci;                                                                            \
        double t0 = mg_acct_on ? PMPI_Wtime() : 0.0;                                               \
        if (!large_call(MPIGUIDE_COLL_##ID, &l, &rc, &ci)) rc = PMPI_##Name##_c ARGS;              \
        if (mg_acct_on) large_note(MPIGUIDE_COLL_##ID, &l, &ci, t0);                               \
        return rc;                                                                                 \
    }                                                                                              \
    MG_EXPORT int MPI_##Name##_c PARAMS {                                                          \
        if (__builtin_expect(mg_on[MPIGUIDE_COLL_##ID], 0)) return mg_slow_##Name##_c ARGS;        \
        return PMPI_##Name##_c ARGS;                                                               \
    }
#include "large.def"
#undef MG_LARGE

#endif
