/* Repairs of predefined reduction ops that an MPI library computes wrongly (src/defects/known.txt:
 * MPICH compares unsigned integers as signed in MPI_MIN and MPI_MAX, Open MPI MPI_UNSIGNED_LONG,
 * and Open MPI's AVX op component saturates 8- and 16-bit sums): the same collective, with
 * mpiguide's own user-defined MIN, MAX or SUM in place of the predefined op. Only integer
 * datatypes are taken (decline OP otherwise); integers wrap as C's unsigned arithmetic does. */
#include "algorithms.h"
#include "algutil.h"
#include "redutil.h"
#include <stdatomic.h>

enum { OWN_MIN, OWN_MAX, OWN_SUM, OWN_COUNT };

/* inout = in op inout over n elements of C type T (U its unsigned twin: sums wrap). */
#define OWN_LOOP(T, U)                                                                             \
    do {                                                                                           \
        const T *x = in;                                                                           \
        T *y = inout;                                                                              \
        for (int i = 0; i < n; i++)                                                                \
            y[i] = op == OWN_MIN   ? (x[i] < y[i] ? x[i] : y[i])                                   \
                   : op == OWN_MAX ? (x[i] > y[i] ? x[i] : y[i])                                   \
                                   : (T)((U)x[i] + (U)y[i]);                                       \
    } while (0)

static void apply(int op, const void *in, void *inout, int n, MPI_Datatype t) {
    int size = 0, sgn = 0;
    if (!mg_integer_kind(t, &size, &sgn)) return; /* never: supports() took integers only */
    switch (size * 2 + sgn) {
    case 2:
        OWN_LOOP(uint8_t, uint8_t);
        break;
    case 3:
        OWN_LOOP(int8_t, uint8_t);
        break;
    case 4:
        OWN_LOOP(uint16_t, uint16_t);
        break;
    case 5:
        OWN_LOOP(int16_t, uint16_t);
        break;
    case 8:
        OWN_LOOP(uint32_t, uint32_t);
        break;
    case 9:
        OWN_LOOP(int32_t, uint32_t);
        break;
    case 16:
        OWN_LOOP(uint64_t, uint64_t);
        break;
    case 17:
        OWN_LOOP(int64_t, uint64_t);
        break;
    }
}

static void own_min(void *in, void *inout, int *n, MPI_Datatype *t) {
    apply(OWN_MIN, in, inout, *n, *t);
}
static void own_max(void *in, void *inout, int *n, MPI_Datatype *t) {
    apply(OWN_MAX, in, inout, *n, *t);
}
static void own_sum(void *in, void *inout, int *n, MPI_Datatype *t) {
    apply(OWN_SUM, in, inout, *n, *t);
}

/* The user op standing in for a predefined one, made on first use (threads may race to make
 * it; the loser frees its own). MPI_OP_NULL when it cannot be made. */
static MPI_Op own_op(int which) {
    static _Atomic(MPI_Op) ops[OWN_COUNT];
    static MPI_User_function *const fns[OWN_COUNT] = {own_min, own_max, own_sum};
    MPI_Op op = atomic_load(&ops[which]), expected = op;
    if (op != MPI_OP_NULL && op) return op;
    if (PMPI_Op_create(fns[which], 1, &op) != MPI_SUCCESS) return MPI_OP_NULL;
    if (!atomic_compare_exchange_strong(&ops[which], &expected, op)) {
        PMPI_Op_free(&op);
        op = expected;
    }
    return op;
}

static int own_of(MPI_Op op) {
    return op == MPI_MIN ? OWN_MIN : op == MPI_MAX ? OWN_MAX : op == MPI_SUM ? OWN_SUM : -1;
}

/* Integer datatypes with MPI_MIN, MPI_MAX or MPI_SUM (op and datatype are the same on every
 * rank of a reduction); the inner call, the same collective with a commutative user op, must
 * not meet a known defect either. */
static unsigned own_supports(const mg_args *a, const mg_shape *s, int coll, int inplace, int root) {
    int size, sgn;
    if (own_of(a->op) < 0 || !mg_integer_kind(a->recvtype, &size, &sgn)) return MPIGUIDE_DECLINE_OP;
    mg_shape user = *s;
    user.op_code = 0, user.predefined_op = 0, user.commute = 1;
    return mg_inner_defect(&user, coll, s->count, inplace, root);
}

static int own_run(int coll, const mg_args *a) {
    mg_args b = *a;
    if ((b.op = own_op(own_of(a->op))) == MPI_OP_NULL) return MPI_ERR_OP;
    return mg_run_default(coll, &b);
}

#define OWN_ROWS(X)                                                                                \
    X(allreduce_with_own_op, ALLREDUCE)                                                            \
    X(reducescatterblock_with_own_op, REDUCE_SCATTER_BLOCK)                                        \
    X(reducescatter_with_own_op, REDUCE_SCATTER)                                                   \
    X(scan_with_own_op, SCAN)

/* The collectives whose MPI_IN_PLACE is every rank's: the inner call passes the same. */
#define OWN_DEFINE(name, ID)                                                                       \
    int mg_##name(const mg_args *a, const mg_shape *s, const mg_scratch *x) {                      \
        (void)s, (void)x;                                                                          \
        return own_run(MPIGUIDE_COLL_##ID, a);                                                     \
    }                                                                                              \
    void mg_##name##_need(const mg_args *a, const mg_shape *s, mg_need *need) {                    \
        mg_need_none(a, s, need);                                                                  \
    }                                                                                              \
    unsigned mg_##name##_supports(const mg_args *a, const mg_shape *s) {                           \
        return own_supports(a, s, MPIGUIDE_COLL_##ID, a->sendbuf == MPI_IN_PLACE, 0);              \
    }
OWN_ROWS(OWN_DEFINE)

/* MPI_Reduce: a root with MPI_IN_PLACE first copies its input to scratch (as
 * reduce_as_copy_reduce), so the inner call never passes MPI_IN_PLACE (which MPICH up to 4.1.1
 * cannot do at a root other than 0). */
int mg_reduce_with_own_op(const mg_args *a, const mg_shape *s, const mg_scratch *x) {
    int rc = MPI_SUCCESS, n = a->recvcount;
    mg_args b = *a;
    if ((b.op = own_op(own_of(a->op))) == MPI_OP_NULL) return MPI_ERR_OP;
    if (s->rank == a->root && a->sendbuf == MPI_IN_PLACE && n > 0) {
        void *in = mg_typed(x->msg, s);
        MG_TRY(mg_tcopy(a->recvbuf, n, a->recvtype, in, n, a->recvtype));
        b.sendbuf = in;
    }
    rc = mg_run_default(MPIGUIDE_COLL_REDUCE, &b);
out:
    return rc;
}

void mg_reduce_with_own_op_need(const mg_args *a, const mg_shape *s, mg_need *need) {
    (void)a;
    need->ints = 0;
    need->msg = mg_span(s, s->count);
}

unsigned mg_reduce_with_own_op_supports(const mg_args *a, const mg_shape *s) {
    unsigned why = mg_red_layout(s, s->count, s->count);
    return why ? why : own_supports(a, s, MPIGUIDE_COLL_REDUCE, 0, a->root);
}
