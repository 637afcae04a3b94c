/* The TUW gather tree (pure): for every p up to 300 and sampled p up to 2^16, all problem types
 * and random sizes, several roots and degradation limits: a valid tree of depth at most
 * ceil(log2 p), every block delivered exactly once and in rank order, the root receiving
 * exactly the non-root blocks, at most ceil(log2 p) construction rounds, buffers within the
 * capacity, and the root's replay (owner) naming the same blocks per message. */
#include "model/tree.h"
#include "check.h"
#include "model/problems.h"
#include <stdlib.h>
#include <string.h>

static int ceil_log2(int p) {
    int l = 0;
    while ((1LL << l) < p) l++;
    return l;
}

typedef struct ctx {
    int p, root;
    const int64_t *size;
    mg_tuw_limits lim;
    const char *desc;
} ctx;

/* Arena of rank lists: each message's list of ranks, in buffer order. */
typedef struct lst {
    size_t at; /* offset into the arena (which may move) */
    int n;
} lst;

static int *arena;
static size_t arena_used, arena_cap;

static size_t take(size_t n) {
    if (arena_used + n > arena_cap) {
        arena_cap = (arena_used + n) * 2;
        arena = realloc(arena, arena_cap * sizeof *arena);
    }
    size_t at = arena_used;
    arena_used += n;
    return at;
}

static int failures_reported;
#define CASE(cond, ...)                                                                            \
    do {                                                                                           \
        int ok_ = (cond);                                                                          \
        if (!ok_ && failures_reported++ > 20) break;                                               \
        CHECK(ok_, __VA_ARGS__);                                                                   \
    } while (0)

static void check_one(const ctx *c) {
    int p = c->p, root = c->root, L = ceil_log2(p);
    mg_tuw_node *node = malloc(mg_tuw_tree_bytes(p));
    mg_tuw_cube *work = malloc((size_t)p * sizeof *work);
    int *tmp = malloc((size_t)p * sizeof(int) * 4);
    mg_tuw_sizes sz = {NULL, c->size, 0};
    mg_tuw_stats st;
    mg_tuw_tree(p, root, &sz, &c->lim, node, work, &st);
    CASE(st.rounds <= L && st.rounds == mg_tuw_levels(p), "%s: rounds %d > %d", c->desc, st.rounds,
         L);
    CASE(node[root].parent == -1, "%s: root has a parent", c->desc);

    /* Structure: every non-root sends once, to a rank that lost later (or to the root). */
    int64_t ndirect = 0, sum = 0;
    int ok = 1;
    for (int i = 0; i < p; i++) {
        if (i == root) continue;
        sum += c->size[i];
        int q = node[i].parent;
        if (q < 0 || q >= p || q == i || node[i].level < 0 || node[i].level >= L) {
            ok = 0;
            break;
        }
        if (q != root && node[q].level <= node[i].level) ok = 0;
        if (node[i].direct && q != root) ok = 0;
        if (node[i].direct) {
            ndirect++;
            if (node[i].bytes <= 0) ok = 0; /* only data is worth a direct message */
        }
    }
    CASE(ok, "%s: malformed parent/level", c->desc);
    if (!ok) goto done;
    CASE(ndirect == st.ndirect, "%s: ndirect %lld vs %lld", c->desc, (long long)ndirect,
         (long long)st.ndirect);
    int depth = mg_tuw_depth(p, root, node, tmp);
    CASE(depth <= L, "%s: depth %d > ceil(log2 p) = %d", c->desc, depth, L);
    if (c->lim.degrade == 0 && c->lim.capacity >= INT64_MAX / 4)
        CASE(ndirect == 0, "%s: degraded without limits", c->desc);

    /* Children lists (CSR) and roles. */
    int *cnt = tmp, *start = tmp + p, *kids = tmp + 2 * p + 1;
    memset(cnt, 0, sizeof(int) * (size_t)p);
    for (int i = 0; i < p; i++)
        if (i != root) cnt[node[i].parent]++;
    start[0] = 0;
    for (int i = 0; i < p; i++) start[i + 1] = start[i] + cnt[i];
    for (int i = 0; i < p; i++) cnt[i] = 0;
    for (int i = 0; i < p; i++)
        if (i != root) kids[start[node[i].parent] + cnt[node[i].parent]++] = i;

    /* Data flow: lists of ranks per sender, built children first (by level). */
    lst *msg = calloc((size_t)p, sizeof *msg);
    arena_used = 0;
    for (int lev = 0; lev < L && ok; lev++) {
        for (int x = 0; x < p && ok; x++) {
            if (x == root || node[x].level != lev) continue;
            mg_tuw_role role;
            memset(&role, 0, sizeof role);
            role.parent = node[x].parent, role.level = node[x].level, role.bytes = node[x].bytes;
            for (int k = start[x]; k < start[x + 1]; k++) {
                int j = kids[k], at = role.nchild++;
                while (at > 0 && role.child[at - 1].level > node[j].level)
                    role.child[at] = role.child[at - 1], at--;
                role.child[at] = (mg_tuw_child){j, node[j].level, node[j].bytes};
            }
            if (x % 97 == 1) { /* spot-check the O(p) reader against this one */
                mg_tuw_role r2;
                mg_tuw_role_of(p, root, node, x, &r2);
                CASE(r2.nchild == role.nchild && r2.bytes == role.bytes &&
                         !memcmp(r2.child, role.child, sizeof(mg_tuw_child) * role.nchild),
                     "%s: role_of(%d) differs", c->desc, x);
            }
            int64_t off[MG_TUW_MAXLEV], own_off;
            int64_t total = mg_tuw_layout(x, c->size[x], &role, off, &own_off);
            CASE(total == node[x].bytes, "%s: rank %d buffer %lld, sends %lld", c->desc, x,
                 (long long)total, (long long)node[x].bytes);
            int busy = 0;
            for (int k = 0; k < role.nchild; k++) busy |= role.child[k].bytes > 0;
            if (busy)
                CASE(total <= c->lim.capacity, "%s: rank %d buffers %lld > capacity", c->desc, x,
                     (long long)total);
            /* Buffer order: lower siblings by decreasing level, own, upper by increasing. */
            int n = 1;
            for (int k = 0; k < role.nchild; k++) n += msg[role.child[k].rank].n;
            size_t base = take((size_t)n);
            int *r = arena + base, m = 0;
            int64_t at = 0;
            for (int k = role.nchild - 1; k >= 0; k--) {
                if (!((x >> role.child[k].level) & 1)) continue;
                lst *l = &msg[role.child[k].rank];
                CASE(off[k] == at, "%s: rank %d lower child %d at %lld, expected %lld", c->desc, x,
                     role.child[k].rank, (long long)off[k], (long long)at);
                memcpy(r + m, arena + l->at, sizeof(int) * (size_t)l->n), m += l->n;
                at += role.child[k].bytes;
            }
            CASE(own_off == at, "%s: rank %d own block at %lld, expected %lld", c->desc, x,
                 (long long)own_off, (long long)at);
            r[m++] = x, at += c->size[x];
            for (int k = 0; k < role.nchild; k++) {
                if ((x >> role.child[k].level) & 1) continue;
                lst *l = &msg[role.child[k].rank];
                CASE(off[k] == at, "%s: rank %d upper child at %lld, expected %lld", c->desc, x,
                     (long long)off[k], (long long)at);
                memcpy(r + m, arena + l->at, sizeof(int) * (size_t)l->n), m += l->n;
                at += role.child[k].bytes;
            }
            int64_t bytes = 0;
            for (int k = 0; k < m; k++) {
                bytes += c->size[r[k]];
                if (k && r[k] <= r[k - 1]) ok = 0;
            }
            CASE(ok, "%s: rank %d buffer out of rank order", c->desc, x);
            CASE(bytes == node[x].bytes, "%s: rank %d message %lld bytes, blocks %lld", c->desc, x,
                 (long long)node[x].bytes, (long long)bytes);
            msg[x] = (lst){base, m};
        }
    }
    /* At the root: every non-root block exactly once; the replay names the same blocks. */
    int *seen = calloc((size_t)p, sizeof *seen);
    int *owner = malloc(sizeof(int) * (size_t)p);
    mg_tuw_owner(p, root, node, owner);
    int64_t got = 0;
    for (int k = start[root]; k < start[root + 1]; k++) {
        int s = kids[k];
        const int *r = arena + msg[s].at;
        for (int j = 0; j < msg[s].n; j++) {
            int i = r[j];
            seen[i]++;
            got += c->size[i];
            if (owner[i] != s) ok = 0;
        }
        if (!node[s].direct && ndirect == 0) {
            int sib = (root >> node[s].level) ^ 1;
            int lo = mg_tuw_first(sib, node[s].level), hi = mg_tuw_last(sib, node[s].level, p);
            CASE(msg[s].n == hi - lo + 1 && r[0] == lo && r[msg[s].n - 1] == hi,
                 "%s: root child %d is not its sibling subcube", c->desc, s);
        }
    }
    CASE(ok, "%s: owner differs from the delivered blocks", c->desc);
    int once = 1;
    for (int i = 0; i < p; i++) once &= seen[i] == (i == root ? 0 : 1);
    CASE(once, "%s: some block not delivered exactly once", c->desc);
    CASE(got == sum, "%s: root got %lld bytes of %lld", c->desc, (long long)got, (long long)sum);
    free(seen);
    free(owner);
    free(msg);
done:
    free(node);
    free(work);
    free(tmp);
}

static uint64_t rng = 12345;
static uint64_t rnd(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* Size generators: the paper's problems (b = 3 elements of 4 bytes) and raw random sizes. */
static void sizes_for(int kind, int p, int64_t *out) {
    if (kind < MG_PROBLEM_COUNT) {
        mg_problem_counts(kind, p, 3, 5.0, 7, out);
        for (int i = 0; i < p; i++) out[i] *= 4;
        return;
    }
    for (int i = 0; i < p; i++) {
        uint64_t r = rnd();
        switch (kind - MG_PROBLEM_COUNT) {
        case 0:
            out[i] = (int64_t)(r % 1000);
            break; /* random bytes */
        case 1:
            out[i] = r % 3 ? 0 : (int64_t)(r % 100000);
            break; /* sparse, zeros */
        default:
            out[i] = (int64_t)(1u << (r % 20));
            break; /* wild spread */
        }
    }
}

#define NKINDS (MG_PROBLEM_COUNT + 3)

static void run(int p, int nroots, int limits) {
    int64_t *size = malloc(sizeof(int64_t) * (size_t)p);
    int roots[5] = {p / 2, 0, p - 1, (int)(7LL * p / 11), (int)(rnd() % (uint64_t)p)};
    mg_tuw_limits lims[3] = {{0, INT64_MAX / 2}, {1000, INT64_MAX / 2}, {0, 5000}};
    char desc[160];
    for (int kind = 0; kind < NKINDS; kind++) {
        sizes_for(kind, p, size);
        for (int ri = 0; ri < nroots; ri++)
            for (int li = 0; li < limits; li++) {
                ctx c = {p, roots[ri], size, lims[li], desc};
                snprintf(desc, sizeof desc, "p=%d root=%d sizes=%d degrade=%lld capacity=%lld", p,
                         c.root, kind, (long long)lims[li].degrade, (long long)lims[li].capacity);
                check_one(&c);
            }
    }
    free(size);
}

/* The paper's Figure 2 shape: p = 11, root 9; the tree must put the root last. */
static void figure2(void) {
    int64_t m[11] = {2, 3, 1, 4, 0, 5, 2, 1, 3, 0, 2};
    mg_tuw_node node[11];
    mg_tuw_cube work[11];
    mg_tuw_sizes sz = {NULL, m, 0};
    mg_tuw_limits lim = {0, INT64_MAX / 2};
    mg_tuw_stats st;
    mg_tuw_tree(11, 9, &sz, &lim, node, work, &st);
    CHECK(st.rounds == 4, "p=11: %d rounds", st.rounds);
    CHECK(node[9].parent == -1, "p=11: root 9 sends");
    int to_root = 0;
    for (int i = 0; i < 11; i++) to_root += node[i].parent == 9;
    /* Root 9 merges in rounds 0 ({8}), 1 ({10}) and 3 ({0..7}); round 2 has no partner. */
    CHECK(to_root == 3, "p=11 root 9: %d children, expected 3", to_root);
}

int main(void) {
    figure2();
    for (int p = 1; p <= 300; p++) run(p, p < 64 ? 5 : 3, 3);
    int sampled[] = {511,  512,  513,   1000,  1023,  1024,  1025,  4095,
                     4096, 4097, 10007, 32767, 32768, 32769, 65535, 65536};
    for (size_t k = 0; k < sizeof sampled / sizeof sampled[0]; k++) run(sampled[k], 1, 2);
    for (int k = 0; k < 6; k++) run(301 + (int)(rnd() % 65000), 2, 3);
    free(arena);
    return DONE();
}
