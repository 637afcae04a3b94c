/* The MPI half of TUW Gatherv/Scatterv: a private communicator per user communicator, the
 * distributed tree construction of Lemma 3 and the root's transfers straight from or into the
 * user's buffer. Every MPI call is PMPI_. */
#include "tuw.h"
#include "runtime/state.h"
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>

void mg_tuw_limits_of(mg_tuw_limits *lim, int p) {
    uint64_t deg = mg_cfg.tuw_degrade_bytes;
    lim->degrade = deg > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)deg;
    /* Buffered subtrees are sent as one MPI_PACKED message: an int count of bytes; the root may
     * stage one behind its replay of the tree (mg_tuw_root_io.stage). */
    size_t tree = mg_tuw_tree_bytes(p),
           room = mg_pool.msg_bytes > tree ? mg_pool.msg_bytes - tree : 0;
    lim->capacity = room < (size_t)INT_MAX ? (int64_t)room : INT_MAX;
}

size_t mg_tuw_need(int p) {
    size_t tree = mg_tuw_tree_bytes(p);
    return mg_pool.msg_bytes > tree ? mg_pool.msg_bytes : tree;
}

/* The private communicator: point-to-point traffic on the user's communicator could match the
 * application's own wildcard receives (or its messages ours), so TUW talks on a communicator of
 * the same group with a fresh context. MPI_Comm_create (not _dup) makes it without running the
 * application's attribute copy callbacks. It is made once per communicator and freed with it. */
static atomic_int tuw_keyval = MPI_KEYVAL_INVALID;

typedef struct tuw_attr {
    MPI_Comm comm;
} tuw_attr;

static int tuw_attr_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
    (void)comm, (void)keyval, (void)extra;
    tuw_attr *t = value;
    int rc = PMPI_Comm_free(&t->comm);
    free(t);
    return rc;
}

/* The attribute key, made by the first TUW call of the process; under MPI_THREAD_MULTIPLE two
 * threads may make one at once, and the loser frees its own. */
static int tuw_key(void) {
    if (atomic_load(&tuw_keyval) != MPI_KEYVAL_INVALID) return MPI_SUCCESS;
    int mine = MPI_KEYVAL_INVALID, expected = MPI_KEYVAL_INVALID;
    int rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, tuw_attr_delete, &mine, NULL);
    if (rc != MPI_SUCCESS) return rc;
    if (!atomic_compare_exchange_strong(&tuw_keyval, &expected, mine)) PMPI_Comm_free_keyval(&mine);
    return MPI_SUCCESS;
}

int mg_tuw_comm(MPI_Comm comm, MPI_Comm *priv) {
    int rc = MPI_SUCCESS, found = 0;
    void *value = NULL;
    MPI_Group group = MPI_GROUP_NULL;
    tuw_attr *t = NULL;
    MG_TRY(tuw_key());
    MG_TRY(PMPI_Comm_get_attr(comm, atomic_load(&tuw_keyval), &value, &found));
    if (found) {
        *priv = ((tuw_attr *)value)->comm;
        return MPI_SUCCESS;
    }
    /* First TUW call on comm: the same call on every rank, as selection is shared. */
    t = malloc(sizeof *t);
    if (!t) return MPI_ERR_NO_MEM;
    t->comm = MPI_COMM_NULL;
    MG_TRY(PMPI_Comm_group(comm, &group));
    MG_TRY(PMPI_Comm_create(comm, group, &t->comm));
    MG_TRY(PMPI_Comm_set_attr(comm, atomic_load(&tuw_keyval), t));
    *priv = t->comm;
    t = NULL;
out:
    if (group != MPI_GROUP_NULL) PMPI_Group_free(&group);
    if (t) {
        if (t->comm != MPI_COMM_NULL) PMPI_Comm_free(&t->comm);
        free(t);
    }
    return rc;
}

/* Applies what this rank learnt about the merge of round d (won: the loser's gather root and
 * size; lost: where to send). note = {won, peer, loser bytes, direct, loser's degraded count}. */
static void apply_note(const int64_t *note, int d, int rank, int root, mg_tuw_role *role,
                       int *active) {
    if (note[0]) {
        if (!note[3] && role->nchild < MG_TUW_MAXLEV)
            role->child[role->nchild++] = (mg_tuw_child){(int32_t)note[1], d, note[2]};
        if (rank == root) role->ndirect += note[4];
        return;
    }
    role->parent = note[3] ? root : (int32_t)note[1];
    role->level = d;
    role->direct = (int32_t)note[3];
    role->bytes = note[2];
    *active = 0;
}

int mg_tuw_construct(MPI_Comm priv, int root, int64_t my_bytes, const mg_tuw_limits *lim,
                     mg_tuw_role *role) {
    int rc = MPI_SUCCESS, p = 0, rank = 0;
    MG_TRY(PMPI_Comm_size(priv, &p));
    MG_TRY(PMPI_Comm_rank(priv, &rank));
    memset(role, 0, sizeof *role);
    role->parent = role->level = -1;
    /* cube: valid while this rank is the fixed root (last rank) of its subcube. */
    mg_tuw_cube cube = {rank == root ? 0 : my_bytes, rank, 0};
    int active = 1; /* still the gather root of its subcube */
    int levels = mg_tuw_levels(p);
    for (int d = 0; d < levels; d++) {
        int a = rank >> d, c = a >> 1, upper = a & 1;
        if ((((int64_t)2 * c + 1) << d) >= p) continue; /* no partner subcube this round */
        int fl = mg_tuw_last(2 * c, d, p), fu = mg_tuw_last(2 * c + 1, d, p);
        int fixed = upper ? fu : fl; /* p - 1 stands in for a missing last rank */
        int64_t note[5];
        if (rank == fixed) {
            int partner = upper ? fl : fu;
            int64_t out[3] = {cube.bytes, cube.gather, cube.ndirect}, in[3];
            MG_TRY(PMPI_Sendrecv(out, 3, MPI_INT64_T, partner, MG_TUW_TAG_EXCHANGE + d, in, 3,
                                 MPI_INT64_T, partner, MG_TUW_TAG_EXCHANGE + d, priv,
                                 MPI_STATUS_IGNORE));
            mg_tuw_cube other = {in[0], (int32_t)in[1], (int32_t)in[2]};
            const mg_tuw_cube *lo = upper ? &other : &cube, *up = upper ? &cube : &other;
            mg_tuw_merged m;
            mg_tuw_merge(lo, up, mg_tuw_root_side(c, d, p, root), lim, &m);
            const mg_tuw_cube *win = m.upper_wins ? up : lo, *lose = m.upper_wins ? lo : up;
            int won = m.upper_wins == upper, gather = cube.gather;
            note[0] = won;
            note[1] = won ? lose->gather : win->gather;
            note[2] = lose->bytes;
            note[3] = m.direct;
            note[4] = lose->ndirect;
            if (upper) cube = m.cube; /* the upper fixed root is the merged cube's fixed root */
            if (gather != rank) {
                MG_TRY(PMPI_Send(note, 5, MPI_INT64_T, gather, MG_TUW_TAG_NOTE + d, priv));
                continue;
            }
        } else if (active) {
            MG_TRY(PMPI_Recv(note, 5, MPI_INT64_T, fixed, MG_TUW_TAG_NOTE + d, priv,
                             MPI_STATUS_IGNORE));
        } else {
            continue;
        }
        apply_note(note, d, rank, root, role, &active);
    }
out:
    return rc;
}

/* One transfer between the root and peer: the blocks of ranks list[0..n-1] (or of the range
 * lo..lo+n-1 when list is NULL), in rank order. blens/disps: room for n ints each (list only). */
static int root_one(const mg_tuw_root_io *io, int peer, const int *list, int lo, int n, int *blens,
                    int *disps, char *stage, MPI_Request *req) {
    int rc = MPI_SUCCESS, any = 0, contiguous = 1, start = 0, packed = 0;
    int64_t total = 0, expect = 0;
    MPI_Datatype t = MPI_DATATYPE_NULL;
    *req = MPI_REQUEST_NULL;
    for (int k = 0; k < n; k++) {
        int i = list ? list[k] : lo + k, c = io->counts[i];
        if (c == 0) continue;
        if (!any) start = io->displs[i], expect = start, any = 1;
        if ((int64_t)io->displs[i] != expect) contiguous = 0;
        expect = (int64_t)io->displs[i] + c;
        total += c;
        packed |= i != peer; /* the peer buffered others' blocks: it sends MPI_PACKED */
    }
    if (!any) return MPI_SUCCESS;
    if (io->gather && io->stage && packed) { /* receive the packed bytes, then place each block */
        int size = 0;
        MG_TRY(PMPI_Type_size(io->type, &size));
        MG_TRY(PMPI_Recv(stage, (int)(total * size), MPI_PACKED, peer, MG_TUW_TAG_DATA, io->priv,
                         MPI_STATUS_IGNORE));
        for (int k = 0, at = 0; k < n; k++) {
            int i = list ? list[k] : lo + k, c = io->counts[i];
            if (c == 0) continue;
            MG_TRY(mg_unpack(stage + (size_t)at * (size_t)size,
                             (char *)io->buf + (MPI_Aint)io->displs[i] * io->extent, c, io->type));
            at += c;
        }
        goto out;
    }
    if (contiguous && total <= INT_MAX) {
        char *at = (char *)io->buf + (MPI_Aint)start * io->extent;
        return io->gather
                   ? PMPI_Irecv(at, (int)total, io->type, peer, MG_TUW_TAG_DATA, io->priv, req)
                   : PMPI_Isend(at, (int)total, io->type, peer, MG_TUW_TAG_DATA, io->priv, req);
    }
    /* The root's blocks are scattered: describe them with an indexed type over its own counts
     * and displacements (zero copy, as the paper suggests). */
    const int *bl = io->counts + lo, *dp = io->displs + lo;
    if (list) {
        for (int k = 0; k < n; k++) blens[k] = io->counts[list[k]], disps[k] = io->displs[list[k]];
        bl = blens, dp = disps;
    }
    MG_TRY(PMPI_Type_indexed(n, bl, dp, io->type, &t));
    MG_TRY(PMPI_Type_commit(&t));
    if (io->gather)
        MG_TRY(PMPI_Irecv(io->buf, 1, t, peer, MG_TUW_TAG_DATA, io->priv, req));
    else
        MG_TRY(PMPI_Isend(io->buf, 1, t, peer, MG_TUW_TAG_DATA, io->priv, req));
out:
    if (t != MPI_DATATYPE_NULL) PMPI_Type_free(&t); /* pending transfers keep it alive */
    return rc;
}

#define MG_TUW_WINDOW 64

int mg_tuw_wait(int n, MPI_Request *req) {
    MPI_Status st[MG_TUW_WINDOW];
    int rc = MPI_SUCCESS;
    for (int k = 0; k < n && rc == MPI_SUCCESS; k += MG_TUW_WINDOW)
        rc = PMPI_Waitall(n - k < MG_TUW_WINDOW ? n - k : MG_TUW_WINDOW, req + k, st);
    return rc;
}

int mg_tuw_root_transfers(const mg_tuw_root_io *io, int p, int root, const mg_tuw_role *role,
                          const mg_tuw_limits *lim, int64_t unit, void *scratch) {
    int rc = MPI_SUCCESS, n = 0;
    MPI_Request req[MG_TUW_WINDOW];
    if (role->ndirect == 0) {
        /* No subtree was degraded: child k sends exactly the sibling subcube of its level.
         * Largest subtrees first (they matter for scatter). */
        for (int k = role->nchild - 1; k >= 0; k--) {
            const mg_tuw_child *c = &role->child[k];
            if (c->bytes == 0) continue;
            int sib = (root >> c->level) ^ 1;
            int lo = mg_tuw_first(sib, c->level), hi = mg_tuw_last(sib, c->level, p);
            MG_TRY(root_one(io, c->rank, NULL, lo, hi - lo + 1, NULL, NULL, scratch, &req[n]));
            n++;
        }
        MG_TRY(mg_tuw_wait(n, req));
        n = 0;
        goto out;
    }
    /* Degraded subtrees leave holes in their ancestors' messages: replay the construction
     * from the root's counts (the same decisions, computed locally) to learn which blocks
     * each message carries. Scratch: the tree, then owner/list/blens/disps in its work part. */
    mg_tuw_node *node = scratch;
    mg_tuw_cube *work =
        (mg_tuw_cube *)((char *)scratch + mg_align((size_t)p * sizeof(mg_tuw_node)));
    mg_tuw_sizes sz = {io->counts, NULL, unit};
    mg_tuw_stats st;
    mg_tuw_tree(p, root, &sz, lim, node, work, &st);
    if (st.ndirect != role->ndirect) return MPI_ERR_INTERN; /* counts disagree with senders */
    int *owner = (int *)work, *list = owner + p, *blens = list + p, *disps = blens + p;
    mg_tuw_owner(p, root, node, owner);
    for (int lev = mg_tuw_levels(p) - 1; lev >= 0; lev--) {
        for (int s = 0; s < p; s++) {
            if (s == root || node[s].parent != root || node[s].level != lev || !node[s].bytes)
                continue;
            int a = s >> lev, lo = mg_tuw_first(a, lev), hi = mg_tuw_last(a, lev, p), m = 0;
            for (int i = lo; i <= hi; i++)
                if (owner[i] == s) list[m++] = i;
            if (n == MG_TUW_WINDOW) {
                MG_TRY(mg_tuw_wait(n, req));
                n = 0;
            }
            MG_TRY(root_one(io, s, list, 0, m, blens, disps, (char *)scratch + mg_tuw_tree_bytes(p),
                            &req[n]));
            n++;
        }
    }
    MG_TRY(mg_tuw_wait(n, req));
    n = 0;
out:
    return rc;
}
