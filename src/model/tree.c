/* The ordered-hypercube gather tree (Träff, Lemmas 1-3) with graceful degradation, computed from
 * all block sizes; the distributed construction in tuw.c makes the same decisions with the
 * same mg_tuw_merge(), one subcube pair per fixed root. Pure. */
#include "tree.h"
#include <string.h>

int mg_tuw_levels(int p) {
    int levels = 0;
    while (levels < 31 && ((int64_t)1 << levels) < p) levels++;
    return levels;
}

int mg_tuw_root_side(int c, int d, int p, int root) {
    (void)p;
    int64_t cube = (int64_t)root >> d;
    if (cube == 2 * (int64_t)c) return MG_TUW_ROOT_LOWER;
    if (cube == 2 * (int64_t)c + 1) return MG_TUW_ROOT_UPPER;
    return MG_TUW_ROOT_NONE;
}

void mg_tuw_merge(const mg_tuw_cube *lower, const mg_tuw_cube *upper, int root_side,
                  const mg_tuw_limits *lim, mg_tuw_merged *out) {
    int up;
    if (root_side == MG_TUW_ROOT_LOWER)
        up = 0;
    else if (root_side == MG_TUW_ROOT_UPPER)
        up = 1;
    else
        up = upper->bytes > lower->bytes;
    const mg_tuw_cube *win = up ? upper : lower, *lose = up ? lower : upper;
    int direct = 0;
    /* Into the root's subcube data always goes to the root itself: nothing to degrade. */
    if (root_side == MG_TUW_ROOT_NONE && lose->bytes > 0)
        direct = (lim->degrade > 0 && lose->bytes > lim->degrade) ||
                 win->bytes + lose->bytes > lim->capacity;
    out->cube.bytes = win->bytes + (direct ? 0 : lose->bytes);
    out->cube.gather = win->gather;
    out->cube.ndirect = lower->ndirect + upper->ndirect + direct;
    out->upper_wins = up;
    out->direct = direct;
}

size_t mg_tuw_tree_bytes(int p) {
    size_t n = p > 0 ? (size_t)p : 0;
    return ((n * sizeof(mg_tuw_node) + 63) & ~(size_t)63) +
           ((n * sizeof(mg_tuw_cube) + 63) & ~(size_t)63);
}

void mg_tuw_tree(int p, int root, const mg_tuw_sizes *sz, const mg_tuw_limits *lim,
                 mg_tuw_node *node, mg_tuw_cube *work, mg_tuw_stats *st) {
    int levels = mg_tuw_levels(p);
    int64_t ndirect = 0;
    for (int i = 0; i < p; i++) {
        int64_t m = i == root ? 0 : mg_tuw_size(sz, i);
        work[i] = (mg_tuw_cube){m, i, 0};
        node[i] = (mg_tuw_node){m, -1, -1, 0};
    }
    for (int d = 0; d < levels; d++) {
        int n = (int)(((int64_t)p + ((int64_t)1 << d) - 1) >> d); /* subcubes at level d */
        for (int c = 0; 2 * c + 1 < n; c++) {
            mg_tuw_merged m;
            mg_tuw_merge(&work[2 * c], &work[2 * c + 1], mg_tuw_root_side(c, d, p, root), lim, &m);
            const mg_tuw_cube *lose = m.upper_wins ? &work[2 * c] : &work[2 * c + 1];
            const mg_tuw_cube *win = m.upper_wins ? &work[2 * c + 1] : &work[2 * c];
            node[lose->gather] = (mg_tuw_node){lose->bytes, m.direct ? root : win->gather,
                                               (int8_t)d, (int8_t)m.direct};
            ndirect += m.direct;
            work[c] = m.cube; /* c <= 2c: the pair was read before */
        }
        if (n % 2) work[n / 2] = work[n - 1]; /* no partner: promoted unchanged */
    }
    if (st) {
        st->rounds = levels;
        st->ndirect = ndirect;
    }
}

void mg_tuw_role_of(int p, int root, const mg_tuw_node *node, int rank, mg_tuw_role *role) {
    memset(role, 0, sizeof *role);
    role->parent = node[rank].parent;
    role->level = node[rank].level;
    role->direct = node[rank].direct;
    role->bytes = node[rank].bytes;
    (void)root;
    for (int j = 0; j < p; j++) {
        if (j == rank || node[j].parent != rank) continue;
        if (node[j].direct) {
            role->ndirect++;
            continue;
        }
        if (role->nchild == MG_TUW_MAXLEV) continue; /* impossible: one child per level */
        mg_tuw_child c = {j, node[j].level, node[j].bytes};
        int k = role->nchild++;
        while (k > 0 && role->child[k - 1].level > c.level) {
            role->child[k] = role->child[k - 1];
            k--;
        }
        role->child[k] = c;
    }
}

int64_t mg_tuw_layout(int rank, int64_t own_bytes, const mg_tuw_role *role, int64_t *child_off,
                      int64_t *own_off) {
    /* The sibling at level d lies below this rank's subcube when bit d of the rank is set;
     * siblings of higher levels lie farther out, so blocks stay in rank order. */
    int64_t below = 0;
    for (int k = 0; k < role->nchild; k++)
        if ((rank >> role->child[k].level) & 1) below += role->child[k].bytes;
    *own_off = below;
    int64_t lo = below, hi = below + own_bytes;
    for (int k = 0; k < role->nchild; k++) {
        if ((rank >> role->child[k].level) & 1) {
            lo -= role->child[k].bytes;
            child_off[k] = lo;
        } else {
            child_off[k] = hi;
            hi += role->child[k].bytes;
        }
    }
    return hi;
}

void mg_tuw_owner(int p, int root, const mg_tuw_node *node, int *owner) {
    for (int i = 0; i < p; i++) owner[i] = -2;
    owner[root] = -1;
    for (int i = 0; i < p; i++) {
        if (owner[i] != -2) continue;
        int j = i;
        while (owner[j] == -2 && node[j].parent != root) j = node[j].parent;
        int o = owner[j] != -2 ? owner[j] : j;
        for (int k = i; owner[k] == -2; k = node[k].parent) {
            owner[k] = o;
            if (node[k].parent == root) break;
        }
    }
}

int mg_tuw_depth(int p, int root, const mg_tuw_node *node, int *depth) {
    int most = 0;
    for (int i = 0; i < p; i++) depth[i] = -1;
    depth[root] = 0;
    for (int i = 0; i < p; i++) {
        /* Walk up to a rank of known depth, then fill the path on the way back down. */
        int j = i, steps = 0;
        while (depth[j] < 0) j = node[j].parent, steps++;
        int at = depth[j] + steps;
        for (int k = i; depth[k] < 0; k = node[k].parent) depth[k] = at--;
        if (depth[i] > most) most = depth[i];
    }
    return most;
}
