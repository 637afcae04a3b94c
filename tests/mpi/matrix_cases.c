/* The matrix's dimension tables, the validity constraints between their values, and the greedy
 * pairwise (covering array) case list generated from them. Everything here is deterministic,
 * so every rank builds the same list and a case index names the same case on every run. */
#include "matrix.h"
#include <stdio.h>
#include <string.h>

#define MX_MAXV 6

static const char *const dim_names[MX_NDIMS] = {"inplace", "root", "comm",   "count", "dtype",
                                                "tpair",   "op",   "nonsig", "place"};

static const char *const value_names[MX_NDIMS][MX_MAXV] = {
    [MX_INPLACE] = {"no", "yes"},
    [MX_ROOT] = {"first", "last", "middle"},
    [MX_COMM] = {"world", "dup", "split-parity", "split-reversed"},
    [MX_COUNT] = {"0", "1", "2p+1", "3p", "1001"},
    [MX_DTYPE] = {"int", "double", "contig", "vector", "struct", "resized"},
    [MX_TPAIR] = {"same", "sendwide", "recvwide", "mixed"},
    [MX_OP] = {"sum", "max", "user-comm", "user-noncomm"},
    [MX_NONSIG] = {"buffer", "null"},
    [MX_PLACE] = {"apart", "send-recv", "recv-send", "misaligned"},
};

static const int nvalues[MX_NDIMS] = {2, 3, MX_NCOMMS, 5, MX_NDTYPES, 4, MX_NOPS, 2, MX_NPLACES};

const char *mx_dim_name(int d) {
    return dim_names[d];
}

const char *mx_value_name(int d, int v) {
    return value_names[d][v];
}

int mx_nvalues(int d) {
    return nvalues[d];
}

static int is_reduction(int coll) {
    switch (coll) {
    case MPIGUIDE_COLL_ALLREDUCE:
    case MPIGUIDE_COLL_REDUCE:
    case MPIGUIDE_COLL_REDUCE_SCATTER:
    case MPIGUIDE_COLL_REDUCE_SCATTER_BLOCK:
    case MPIGUIDE_COLL_SCAN:
    case MPIGUIDE_COLL_EXSCAN:
        return 1;
    default:
        return 0;
    }
}

static int is_rooted(int coll) {
    switch (coll) {
    case MPIGUIDE_COLL_BCAST:
    case MPIGUIDE_COLL_GATHER:
    case MPIGUIDE_COLL_GATHERV:
    case MPIGUIDE_COLL_REDUCE:
    case MPIGUIDE_COLL_SCATTER:
    case MPIGUIDE_COLL_SCATTERV:
        return 1;
    default:
        return 0;
    }
}

int mx_dim_applies(int coll, int d) {
    if (coll == MPIGUIDE_COLL_BARRIER) return d == MX_COMM; /* no buffers, no datatype */
    switch (d) {
    case MX_INPLACE: /* every collective of the matrix but MPI_Bcast accepts MPI_IN_PLACE */
        return coll != MPIGUIDE_COLL_BCAST;
    case MX_ROOT:
        return is_rooted(coll);
    case MX_TPAIR: /* reductions have one datatype for both sides */
        return !is_reduction(coll);
    case MX_OP:
        return is_reduction(coll);
    case MX_NONSIG: /* rooted calls with arguments significant only at the root */
        return is_rooted(coll) && coll != MPIGUIDE_COLL_BCAST;
    case MX_PLACE: /* MPI_Bcast has one buffer */
        return coll != MPIGUIDE_COLL_BCAST;
    default:
        return 1;
    }
}

int mx_value_allowed(int coll, int d, int v) {
    if (v < 0 || v >= nvalues[d]) return 0;
    return mx_dim_applies(coll, d) || v == 0;
}

static int predefined_type(int dt) {
    return dt == MX_DT_INT || dt == MX_DT_DOUBLE;
}

/* MPI_IN_PLACE on every rank leaves no send type, so the two sides cannot differ. */
static int inplace_everywhere(int coll) {
    return coll == MPIGUIDE_COLL_ALLGATHER || coll == MPIGUIDE_COLL_ALLTOALL ||
           coll == MPIGUIDE_COLL_ALLGATHERV || coll == MPIGUIDE_COLL_ALLTOALLV;
}

/* MPI_IN_PLACE replaces a buffer on every rank (not only the root's). */
static int inplace_all_ranks(int coll) {
    return is_reduction(coll) ? coll != MPIGUIDE_COLL_REDUCE : inplace_everywhere(coll);
}

int mx_pair_allowed(int coll, int d1, int v1, int d2, int v2) {
    if (!mx_value_allowed(coll, d1, v1) || !mx_value_allowed(coll, d2, v2)) return 0;
    if (d1 > d2) {
        int t = d1;
        d1 = d2, d2 = t;
        t = v1, v1 = v2, v2 = t;
    }
    /* Predefined ops apply to predefined datatypes only; derived ones get the user ops. */
    if (d1 == MX_DTYPE && d2 == MX_OP && is_reduction(coll))
        return !(v2 == MX_OP_SUM || v2 == MX_OP_MAX) || predefined_type(v1);
    if (d1 == MX_INPLACE && d2 == MX_TPAIR && inplace_everywhere(coll))
        return v1 == MX_INPLACE_NO || v2 == MX_TP_SAME;
    /* With MPI_IN_PLACE on every rank there is one buffer: no placement to vary. */
    if (d1 == MX_INPLACE && d2 == MX_PLACE && inplace_all_ranks(coll))
        return v1 == MX_INPLACE_NO || v2 == MX_PLACE_APART;
    return 1;
}

int mx_count_of(int v, int p) {
    switch (v) {
    case MX_COUNT_ZERO:
        return 0;
    case MX_COUNT_ONE:
        return 1;
    case MX_COUNT_ODD: /* not divisible by p when p > 1 */
        return 2 * p + 1;
    case MX_COUNT_MULTIPLE:
        return 3 * p;
    default: /* 1001 = 7 * 11 * 13: not divisible by 2, 3, 4, 5 or 8 */
        return 1001;
    }
}

int mx_root_of(int v, int p) {
    return v == MX_ROOT_FIRST ? 0 : v == MX_ROOT_LAST ? p - 1 : p / 2;
}

/* ---- Greedy pairwise generation ---- */

typedef struct gen {
    int coll;
    /* uncovered[d1][v1][d2][v2], d1 < d2: the valid pair still lacks a case */
    unsigned char uncovered[MX_NDIMS][MX_MAXV][MX_NDIMS][MX_MAXV];
    int used[MX_NDIMS][MX_MAXV]; /* how often each value was chosen (ties prefer rare ones) */
    uint64_t rng;
} gen;

static uint64_t next_rand(gen *g) {
    g->rng ^= g->rng << 13;
    g->rng ^= g->rng >> 7;
    g->rng ^= g->rng << 17;
    return g->rng;
}

static int compatible(const gen *g, const mx_case *c, const int *set, int d, int v) {
    for (int e = 0; e < MX_NDIMS; e++)
        if (set[e] && e != d && !mx_pair_allowed(g->coll, d, v, e, c->v[e])) return 0;
    return mx_value_allowed(g->coll, d, v);
}

static int is_uncovered(const gen *g, int d1, int v1, int d2, int v2) {
    return d1 < d2 ? g->uncovered[d1][v1][d2][v2] : g->uncovered[d2][v2][d1][v1];
}

/* Pairs the complete case c would newly cover. */
static int gain(const gen *g, const mx_case *c) {
    int n = 0;
    for (int d1 = 0; d1 < MX_NDIMS; d1++)
        for (int d2 = d1 + 1; d2 < MX_NDIMS; d2++) n += g->uncovered[d1][c->v[d1]][d2][c->v[d2]];
    return n;
}

/* One candidate case holding the pair (d1, v1), (d2, v2): the other dimensions in a random
 * order, each taking the compatible value that covers most new pairs with those already set.
 * Returns 0 when some dimension has no compatible value left. */
static int candidate(gen *g, int d1, int v1, int d2, int v2, mx_case *c) {
    int set[MX_NDIMS] = {0}, order[MX_NDIMS], n = 0;
    memset(c, 0, sizeof *c);
    c->v[d1] = (signed char)v1, c->v[d2] = (signed char)v2;
    set[d1] = set[d2] = 1;
    for (int d = 0; d < MX_NDIMS; d++)
        if (d != d1 && d != d2) order[n++] = d;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(next_rand(g) % (uint64_t)(i + 1)), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (int i = 0; i < n; i++) {
        int d = order[i], best = -1, best_score = -1;
        for (int v = 0; v < nvalues[d]; v++) {
            if (!compatible(g, c, set, d, v)) continue;
            int score = 0;
            for (int e = 0; e < MX_NDIMS; e++)
                if (set[e]) score += is_uncovered(g, d, v, e, c->v[e]);
            /* ties: the value used least so far, then a random one */
            score = score * 4096 + (1023 - (g->used[d][v] > 1023 ? 1023 : g->used[d][v])) * 4 +
                    (int)(next_rand(g) % 4);
            if (score > best_score) best = v, best_score = score;
        }
        if (best < 0) return 0;
        c->v[d] = (signed char)best;
        set[d] = 1;
    }
    return 1;
}

int mx_cases(int coll, mx_case *out, int max) {
    static gen g;
    memset(&g, 0, sizeof g);
    g.coll = coll;
    g.rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)(coll + 1) * 0x100000001B3ull;
    for (int d1 = 0; d1 < MX_NDIMS; d1++)
        for (int d2 = d1 + 1; d2 < MX_NDIMS; d2++)
            for (int v1 = 0; v1 < nvalues[d1]; v1++)
                for (int v2 = 0; v2 < nvalues[d2]; v2++)
                    g.uncovered[d1][v1][d2][v2] =
                        (unsigned char)mx_pair_allowed(coll, d1, v1, d2, v2);
    int ncases = 0;
    for (;;) {
        /* the first uncovered pair in table order seeds the next case */
        int d1 = -1, v1 = 0, d2 = 0, v2 = 0;
        for (int a = 0; a < MX_NDIMS && d1 < 0; a++)
            for (int b = a + 1; b < MX_NDIMS && d1 < 0; b++)
                for (int x = 0; x < nvalues[a] && d1 < 0; x++)
                    for (int y = 0; y < nvalues[b] && d1 < 0; y++)
                        if (g.uncovered[a][x][b][y]) d1 = a, v1 = x, d2 = b, v2 = y;
        if (d1 < 0) break;
        mx_case best, c;
        int best_gain = -1;
        for (int k = 0; k < 24; k++) {
            if (!candidate(&g, d1, v1, d2, v2, &c)) continue;
            int n = gain(&g, &c);
            if (n > best_gain) best = c, best_gain = n;
        }
        if (best_gain < 0 || ncases == max) return -1;
        for (int a = 0; a < MX_NDIMS; a++) {
            g.used[a][best.v[a]]++;
            for (int b = a + 1; b < MX_NDIMS; b++) g.uncovered[a][best.v[a]][b][best.v[b]] = 0;
        }
        out[ncases++] = best;
    }
    return ncases;
}

void mx_describe(int coll, const mx_case *c, char *buf, size_t len) {
    size_t at = 0;
    buf[0] = 0;
    for (int d = 0; d < MX_NDIMS && at < len; d++) {
        if (!mx_dim_applies(coll, d)) continue;
        int n = snprintf(buf + at, len - at, "%s%s=%s", at ? " " : "", dim_names[d],
                         value_names[d][c->v[d]]);
        if (n < 0) break;
        at += (size_t)n;
    }
}
