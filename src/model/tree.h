/* Träff's ordered-hypercube gather tree for the linear-time Gatherv/Scatterv: the merge rule,
 * the whole tree from all block sizes, one rank's role and its buffer layout. Pure (no MPI):
 * the distributed construction, the root's replay, the simulator and the tests share it. */
#ifndef MG_TUW_TREE_H
#define MG_TUW_TREE_H

#include <stddef.h>
#include <stdint.h>

/* ceil(log2 p) for any int p is at most 31; one spare. */
#define MG_TUW_MAXLEV 32

/* What the fixed root of an ordered subcube knows about it. */
typedef struct mg_tuw_cube {
    int64_t bytes;   /* data its gather root will forward (the root's own block counts 0) */
    int32_t gather;  /* gather root */
    int32_t ndirect; /* subtrees inside that send straight to the root */
} mg_tuw_cube;

/* Limits identical on every rank (configuration and pool size). */
typedef struct mg_tuw_limits {
    int64_t degrade;  /* graceful degradation: a subtree with more data sends to the root; 0 off */
    int64_t capacity; /* most bytes a non-root gather root may buffer (its scratch) */
} mg_tuw_limits;

/* Which side of a merge holds the gather root r (m_r = infinity). */
enum { MG_TUW_ROOT_NONE, MG_TUW_ROOT_LOWER, MG_TUW_ROOT_UPPER };

typedef struct mg_tuw_merged {
    mg_tuw_cube cube; /* the merged subcube */
    int upper_wins;   /* the upper subcube's gather root gathers the merged cube */
    int direct;       /* the loser sends straight to the root (degradation or scratch) */
} mg_tuw_merged;

/* Block sizes in bytes: bytes[i] when bytes is set, else counts[i] * unit. */
typedef struct mg_tuw_sizes {
    const int *counts;
    const int64_t *bytes;
    int64_t unit;
} mg_tuw_sizes;

static inline int64_t mg_tuw_size(const mg_tuw_sizes *s, int i) {
    return s->bytes ? s->bytes[i] : (int64_t)s->counts[i] * s->unit;
}

/* One rank's place in the full tree (compact: the whole tree is p of these). */
typedef struct mg_tuw_node {
    int64_t bytes;  /* bytes it sends (its forwarded subtree data; 0: no message) */
    int32_t parent; /* where it sends; -1 at the root */
    int8_t level;   /* round of the merge in which it lost; -1 at the root */
    int8_t direct;  /* 1: graceful degradation, parent is the root past the tree */
} mg_tuw_node;

/* A tree child (a loser that sends to this rank) as the rank itself learns it. */
typedef struct mg_tuw_child {
    int32_t rank;  /* gather root of the sibling subcube */
    int32_t level; /* round of the merge */
    int64_t bytes; /* bytes it sends (0: no message) */
} mg_tuw_child;

/* Everything one rank needs for the data phase; what the distributed construction computes. */
typedef struct mg_tuw_role {
    int32_t parent;  /* -1 at the root */
    int32_t level;   /* round in which it lost; -1 at the root */
    int32_t direct;  /* 1: sends straight to the root (graceful degradation) */
    int32_t nchild;  /* tree children, by increasing level (direct senders excluded) */
    int64_t bytes;   /* bytes it sends */
    int64_t ndirect; /* root: subtrees that send straight to it */
    mg_tuw_child child[MG_TUW_MAXLEV];
} mg_tuw_role;

/* ceil(log2 p): the construction rounds. */
int mg_tuw_levels(int p);
/* First and last rank of subcube a at level d (the last one may be incomplete). */
static inline int mg_tuw_first(int a, int d) {
    return (int)((int64_t)a << d);
}
static inline int mg_tuw_last(int a, int d, int p) {
    int64_t last = (((int64_t)a + 1) << d) - 1;
    return last < p ? (int)last : p - 1;
}
/* Root side of the merge of subcubes 2c (lower) and 2c+1 (upper) at level d. */
int mg_tuw_root_side(int c, int d, int p, int root);

/* The merge rule of Lemma 3 with graceful degradation: the root's side wins, else the side
 * with more data (ties: the lower); the loser sends straight to the root when its data exceeds
 * lim->degrade or the winner could not buffer both within lim->capacity. The one place that
 * decides a merge: the distributed construction and the pure tree both call it. */
void mg_tuw_merge(const mg_tuw_cube *lower, const mg_tuw_cube *upper, int root_side,
                  const mg_tuw_limits *lim, mg_tuw_merged *out);

typedef struct mg_tuw_stats {
    int rounds;      /* construction rounds taken */
    int64_t ndirect; /* subtrees sending straight to the root */
} mg_tuw_stats;

/* Bytes of scratch mg_tuw_tree() needs for p ranks (node + work arrays, 64-byte aligned). */
size_t mg_tuw_tree_bytes(int p);
/* The whole tree from all block sizes, round by round exactly as the distributed construction
 * proceeds. node[p] receives the result; work holds p cubes (16 bytes each). The root's own
 * size is ignored. */
void mg_tuw_tree(int p, int root, const mg_tuw_sizes *sz, const mg_tuw_limits *lim,
                 mg_tuw_node *node, mg_tuw_cube *work, mg_tuw_stats *st);
/* The role of `rank` read off the whole tree (O(p)); equals what the distributed construction
 * gives that rank. */
void mg_tuw_role_of(int p, int root, const mg_tuw_node *node, int rank, mg_tuw_role *role);
/* Offsets of the children's data and of the own block (own_bytes) in the rank's buffer, which
 * holds its subcube's forwarded blocks in rank order. Returns the buffer size. */
int64_t mg_tuw_layout(int rank, int64_t own_bytes, const mg_tuw_role *role, int64_t *child_off,
                      int64_t *own_off);
/* owner[i]: the rank whose message to the root carries rank i's block (i itself when i sends
 * to the root); owner[root] = -1. */
void mg_tuw_owner(int p, int root, const mg_tuw_node *node, int *owner);
/* Longest path to the root (edges), with depth[p] as scratch. */
int mg_tuw_depth(int p, int root, const mg_tuw_node *node, int *depth);

#endif
