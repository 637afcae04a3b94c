/* Arguments of one matrix case on one rank, per collective: which buffers exist and how many
 * elements they hold, MPI_IN_PLACE with its per-collective meaning (the root's alone for
 * Gather(v), Scatter(v) and Reduce), the send and receive types of a block (equal, or
 * contiguous(2, T) x c against T x 2c), and the arguments significant only at the root
 * (a sentinel buffer that must stay untouched, or NULL, 0 and MPI_DATATYPE_NULL). */
#include "matrix.h"
#include <stdlib.h>
#include <string.h>

/* Whether the send (or receive) side of this rank uses the wide type. */
static int wide(int tpair, int rank, int send_side) {
    switch (tpair) {
    case MX_TP_SENDWIDE:
        return send_side;
    case MX_TP_RECVWIDE:
        return !send_side;
    case MX_TP_MIXED:
        return rank % 2 == 0 ? send_side : !send_side;
    default:
        return 0;
    }
}

/* Type and count of a block of e elements of T on one side (e is even when the types differ). */
static void side(const mx_setup *S, int tpair, int send_side, int64_t e, MPI_Datatype *t,
                 int *count) {
    int w = wide(tpair, S->rank, send_side);
    *t = w ? S->T->wide : S->T->t;
    *count = (int)(w ? e / 2 : e);
}

static void buffer(mx_setup *S, int which, int64_t n) {
    S->has[which] = 1;
    S->n[which] = S->defined[which] = n;
}

static void absent(mx_setup *S, int which, const void *ptr) {
    S->has[which] = 0;
    S->fixed[which] = ptr;
}

/* Block counts of the v-collectives (in units of c: T x m c_i per rank) and displacements in
 * reversed rank order with a one-unit gap after each block, so blocks are neither contiguous
 * nor in rank order and the gaps must stay untouched. Returns the units the layout spans. */
static int64_t v_layout(int c, int p, int64_t *units, int64_t *disp) {
    for (int i = 0; i < p; i++) units[i] = c == 0 || i % 4 == 1 ? 0 : c + i % 3;
    int64_t at = 0;
    for (int i = p - 1; i >= 0; i--) {
        disp[i] = at;
        at += units[i] + 1;
    }
    return at;
}

/* counts/displs arrays of one side in that side's type units (m: T elements per unit). */
static int fill_v_arrays(mx_setup *S, int k, int tpair, int send_side, int m, const int64_t *units,
                         const int64_t *disp) {
    S->counts[k] = malloc(sizeof(int) * (size_t)S->p);
    S->displs[k] = malloc(sizeof(int) * (size_t)S->p);
    if (!S->counts[k] || !S->displs[k]) return -1;
    int w = wide(tpair, S->rank, send_side);
    for (int i = 0; i < S->p; i++) {
        S->counts[k][i] = (int)(w ? units[i] : m * units[i]);
        S->displs[k][i] = (int)(w ? disp[i] : m * disp[i]);
    }
    return 0;
}

static int setup_v(mx_setup *S, const mx_case *c, int tpair, int m, int inplace, int null) {
    int p = S->p, root = S->rank == S->root, gather = S->coll == MPIGUIDE_COLL_GATHERV;
    int64_t *units = malloc(sizeof(int64_t) * 2 * (size_t)p), *disp = units + p;
    if (!units) return -1;
    int64_t span = v_layout(S->count, p, units, disp);
    int rc = fill_v_arrays(S, gather ? 1 : 0, tpair, !gather, m, units, disp);
    int64_t mine = m * units[S->rank];
    MPI_Datatype t;
    int n;
    (void)c;
    /* the block side of this rank */
    side(S, tpair, gather, mine, &t, &n);
    if (gather) {
        S->a.sendcount = n, S->a.sendtype = t;
        buffer(S, MX_SEND, mine);
        if (root && inplace) {
            absent(S, MX_SEND, MPI_IN_PLACE);
            S->a.sendcount = 0, S->a.sendtype = MPI_DATATYPE_NULL;
        }
        S->a.recvtype = wide(tpair, S->rank, 0) ? S->T->wide : S->T->t;
        S->a.recvcounts = S->counts[1], S->a.rdispls = S->displs[1];
        buffer(S, MX_RECV, m * span);
        if (!root && null) {
            absent(S, MX_RECV, NULL);
            S->a.recvcounts = S->a.rdispls = NULL;
            S->a.recvtype = MPI_DATATYPE_NULL;
        }
    } else {
        S->a.recvcount = n, S->a.recvtype = t;
        buffer(S, MX_RECV, mine);
        if (root && inplace) {
            absent(S, MX_RECV, MPI_IN_PLACE);
            S->a.recvcount = 0, S->a.recvtype = MPI_DATATYPE_NULL;
        }
        S->a.sendtype = wide(tpair, S->rank, 1) ? S->T->wide : S->T->t;
        S->a.sendcounts = S->counts[0], S->a.sdispls = S->displs[0];
        buffer(S, MX_SEND, m * span);
        if (!root && null) {
            absent(S, MX_SEND, NULL);
            S->a.sendcounts = S->a.sdispls = NULL;
            S->a.sendtype = MPI_DATATYPE_NULL;
        }
    }
    free(units);
    return rc;
}

/* Allgatherv: v_layout's counts and displacements (the same on every rank) on the receive side,
 * this rank's block on the send side; MPI_IN_PLACE (every rank) takes it from recvbuf. */
static int setup_allgatherv(mx_setup *S, int tpair, int m, int inplace) {
    int p = S->p;
    int64_t *units = malloc(sizeof(int64_t) * 2 * (size_t)p), *disp = units + p;
    if (!units) return -1;
    int64_t span = v_layout(S->count, p, units, disp);
    int rc = fill_v_arrays(S, 1, tpair, 0, m, units, disp);
    side(S, tpair, 1, m * units[S->rank], &S->a.sendtype, &S->a.sendcount);
    buffer(S, MX_SEND, m * units[S->rank]);
    S->a.recvtype = wide(tpair, S->rank, 0) ? S->T->wide : S->T->t;
    S->a.recvcounts = S->counts[1], S->a.rdispls = S->displs[1];
    buffer(S, MX_RECV, m * span);
    if (inplace) {
        absent(S, MX_SEND, MPI_IN_PLACE);
        S->a.sendcount = 0, S->a.sendtype = MPI_DATATYPE_NULL;
    }
    free(units);
    return rc;
}

/* Alltoallv: rank i sends u(i, j) = u(j, i) units to rank j (symmetric, so MPI_IN_PLACE, whose
 * receive side describes both directions, is valid too), zero for some pairs, each side's
 * blocks in reversed rank order with a one-unit gap after each. */
static int setup_alltoallv(mx_setup *S, int tpair, int m, int inplace) {
    int p = S->p, c = S->count, r = S->rank;
    int64_t *units = malloc(sizeof(int64_t) * 2 * (size_t)p), *disp = units + p, at = 0;
    if (!units) return -1;
    for (int j = 0; j < p; j++) units[j] = c == 0 || (r + j) % 4 == 1 ? 0 : c + (r + j) % 3;
    for (int j = p - 1; j >= 0; j--) {
        disp[j] = at;
        at += units[j] + 1;
    }
    int rc = fill_v_arrays(S, 0, tpair, 1, m, units, disp);
    if (!rc) rc = fill_v_arrays(S, 1, tpair, 0, m, units, disp);
    S->a.sendtype = wide(tpair, r, 1) ? S->T->wide : S->T->t;
    S->a.recvtype = wide(tpair, r, 0) ? S->T->wide : S->T->t;
    S->a.sendcounts = S->counts[0], S->a.sdispls = S->displs[0];
    S->a.recvcounts = S->counts[1], S->a.rdispls = S->displs[1];
    buffer(S, MX_SEND, m * at);
    buffer(S, MX_RECV, m * at);
    if (inplace) {
        absent(S, MX_SEND, MPI_IN_PLACE);
        S->a.sendcounts = S->a.sdispls = NULL, S->a.sendtype = MPI_DATATYPE_NULL;
    }
    free(units);
    return rc;
}

int mx_setup_case(int coll, const mx_case *c, MPI_Comm comm, mx_setup *S) {
    memset(S, 0, sizeof *S);
    PMPI_Comm_size(comm, &S->p);
    PMPI_Comm_rank(comm, &S->rank);
    S->coll = coll;
    S->T = mx_type_of(c->v[MX_DTYPE]);
    S->root = mx_root_of(c->v[MX_ROOT], S->p);
    S->count = mx_count_of(c->v[MX_COUNT], S->p);
    S->place = c->v[MX_PLACE];
    S->inplace = c->v[MX_INPLACE] == MX_INPLACE_YES;
    int p = S->p, root = S->rank == S->root, inplace = c->v[MX_INPLACE] == MX_INPLACE_YES;
    int null = c->v[MX_NONSIG] == MX_NONSIG_NULL, tpair = c->v[MX_TPAIR];
    S->tpair = tpair;
    int m = tpair == MX_TP_SAME ? 1 : 2; /* T elements per count unit */
    int64_t cnt = S->count, e = m * cnt; /* T elements of one block */
    int op = c->v[MX_OP];
    mpiguide_args *a = &S->a;
    a->comm = comm;
    a->root = S->root;
    a->op = MPI_OP_NULL;
    S->values = MX_VALUES_ANY;
    switch (coll) {
    case MPIGUIDE_COLL_ALLGATHER:
    case MPIGUIDE_COLL_ALLTOALL: {
        int64_t sn = coll == MPIGUIDE_COLL_ALLGATHER ? e : p * e;
        side(S, tpair, 1, e, &a->sendtype, &a->sendcount);
        side(S, tpair, 0, e, &a->recvtype, &a->recvcount);
        buffer(S, MX_SEND, sn);
        buffer(S, MX_RECV, p * e);
        if (inplace) {
            absent(S, MX_SEND, MPI_IN_PLACE);
            a->sendcount = 0, a->sendtype = MPI_DATATYPE_NULL;
        }
        return 0;
    }
    case MPIGUIDE_COLL_BCAST:
        side(S, tpair, root, e, &a->recvtype, &a->recvcount);
        a->sendtype = a->recvtype, a->sendcount = a->recvcount;
        absent(S, MX_SEND, NULL); /* bound to the same buffer by mx_bind */
        buffer(S, MX_RECV, e);
        return 0;
    case MPIGUIDE_COLL_GATHER:
        side(S, tpair, 1, e, &a->sendtype, &a->sendcount);
        side(S, tpair, 0, e, &a->recvtype, &a->recvcount);
        buffer(S, MX_SEND, e);
        buffer(S, MX_RECV, p * e);
        if (root && inplace) {
            absent(S, MX_SEND, MPI_IN_PLACE);
            a->sendcount = 0, a->sendtype = MPI_DATATYPE_NULL;
        }
        if (!root && null) {
            absent(S, MX_RECV, NULL);
            a->recvcount = 0, a->recvtype = MPI_DATATYPE_NULL;
        }
        return 0;
    case MPIGUIDE_COLL_SCATTER:
        side(S, tpair, 1, e, &a->sendtype, &a->sendcount);
        side(S, tpair, 0, e, &a->recvtype, &a->recvcount);
        buffer(S, MX_SEND, p * e);
        buffer(S, MX_RECV, e);
        if (root && inplace) {
            absent(S, MX_RECV, MPI_IN_PLACE);
            a->recvcount = 0, a->recvtype = MPI_DATATYPE_NULL;
        }
        if (!root && null) {
            absent(S, MX_SEND, NULL);
            a->sendcount = 0, a->sendtype = MPI_DATATYPE_NULL;
        }
        return 0;
    case MPIGUIDE_COLL_GATHERV:
    case MPIGUIDE_COLL_SCATTERV:
        return setup_v(S, c, tpair, m, inplace, null);
    case MPIGUIDE_COLL_ALLGATHERV:
        return setup_allgatherv(S, tpair, m, inplace);
    case MPIGUIDE_COLL_ALLTOALLV:
        return setup_alltoallv(S, tpair, m, inplace);
    case MPIGUIDE_COLL_BARRIER: /* no buffers: a barrier either returns everywhere or hangs */
        absent(S, MX_SEND, NULL);
        absent(S, MX_RECV, NULL);
        return 0;
    default:
        break;
    }
    /* Reductions: one count and datatype everywhere, both sides. */
    a->op = mx_op_of(op);
    a->sendtype = a->recvtype = S->T->t;
    a->sendcount = a->recvcount = (int)cnt;
    S->values = op == MX_OP_USER_NONCOMM ? MX_VALUES_AFFINE : MX_VALUES_SMALL;
    switch (coll) {
    case MPIGUIDE_COLL_ALLREDUCE:
    case MPIGUIDE_COLL_SCAN:
    case MPIGUIDE_COLL_EXSCAN:
        buffer(S, MX_SEND, cnt);
        buffer(S, MX_RECV, cnt);
        if (inplace) absent(S, MX_SEND, MPI_IN_PLACE);
        return 0;
    case MPIGUIDE_COLL_REDUCE:
        buffer(S, MX_SEND, cnt);
        buffer(S, MX_RECV, cnt);
        if (root && inplace) absent(S, MX_SEND, MPI_IN_PLACE);
        if (!root && null) absent(S, MX_RECV, NULL);
        return 0;
    case MPIGUIDE_COLL_REDUCE_SCATTER_BLOCK:
        buffer(S, MX_SEND, p * cnt);
        buffer(S, MX_RECV, cnt);
        if (inplace) {
            /* the input is p blocks in recvbuf; only the first block is defined after */
            absent(S, MX_SEND, MPI_IN_PLACE);
            S->n[MX_RECV] = p * cnt;
        }
        return 0;
    case MPIGUIDE_COLL_REDUCE_SCATTER: {
        /* cnt elements in all, the remainder of cnt / p going to the last ranks */
        S->counts[1] = malloc(sizeof(int) * (size_t)p);
        if (!S->counts[1]) return -1;
        for (int i = 0; i < p; i++) S->counts[1][i] = (int)(cnt / p + (i >= p - cnt % p));
        a->recvcounts = S->counts[1];
        a->sendcount = a->recvcount = 0;
        buffer(S, MX_SEND, cnt);
        buffer(S, MX_RECV, S->counts[1][S->rank]);
        if (inplace) {
            absent(S, MX_SEND, MPI_IN_PLACE);
            S->n[MX_RECV] = cnt;
        }
        return 0;
    }
    default:
        return -1;
    }
}

void mx_setup_free(mx_setup *S) {
    for (int k = 0; k < 2; k++) {
        free(S->counts[k]);
        free(S->displs[k]);
        S->counts[k] = S->displs[k] = NULL;
    }
}

void mx_bind(const mx_setup *S, mx_buf bufs[MX_NBUFS], mpiguide_args *a) {
    *a = S->a;
    a->sendbuf = S->has[MX_SEND] ? bufs[MX_SEND].ptr : S->fixed[MX_SEND];
    a->recvbuf = S->has[MX_RECV] ? bufs[MX_RECV].ptr : (void *)(uintptr_t)S->fixed[MX_RECV];
    if (S->coll == MPIGUIDE_COLL_BCAST) a->sendbuf = a->recvbuf;
}
