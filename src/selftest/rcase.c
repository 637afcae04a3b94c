/* Cases of the random differential test (rcase.h): drawn from a splitmix64 stream keyed by seed,
 * collective and case number; every rank's arguments follow from the case; buffer contents and
 * the sequential reference come from the same keyed values, so any rank can compute any rank's
 * inputs and its own expected result without communication. */
#include "rcase.h"
#include "catalog/catalog.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mg_rcomm_names[MG_RC_COUNT] = {"world", "dup", "reversed", "parity", "halves"};
static const char *const place_names[MG_RP_COUNT] = {"apart", "send-recv", "recv-send",
                                                     "misaligned"};
static const char *const side_names[MG_RS_COUNT] = {"same", "sendwide", "recvwide", "mixed"};
static const char *const class_names[] = {
    "0", "1", "<p", "not-multiple-of-p", "multiple-of-p", "small", "large"};

static uint64_t mix(uint64_t x) { /* splitmix64's finaliser */
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r) {
    r->s += 0x9E3779B97F4A7C15ull;
    return mix(r->s);
}

static int64_t below(rng *r, int64_t n) {
    return n <= 1 ? 0 : (int64_t)(next(r) % (uint64_t)n);
}

static rng stream(uint64_t seed, int coll, int64_t index) {
    rng r = {mix(seed ^ mix((uint64_t)coll << 40 ^ (uint64_t)index))};
    return r;
}

int mg_rcase_supported(int coll) {
    switch (coll) {
    case MG_CAT_ALLGATHER:
    case MG_CAT_ALLTOALL:
    case MG_CAT_BCAST:
    case MG_CAT_GATHER:
    case MG_CAT_SCATTER:
    case MG_CAT_GATHERV:
    case MG_CAT_SCATTERV:
    case MG_CAT_ALLREDUCE:
    case MG_CAT_REDUCE:
    case MG_CAT_SCAN:
    case MG_CAT_REDUCE_SCATTER_BLOCK:
    case MG_CAT_REDUCE_SCATTER:
    case MG_CAT_ALLGATHERV:
    case MG_CAT_ALLTOALLV:
    case MG_CAT_EXSCAN:
    case MG_CAT_BARRIER:
        return 1;
    default:
        return 0;
    }
}

/* MPI_IN_PLACE on every rank (1), at the root only (2), not at all (0). */
static int inplace_kind(int coll) {
    switch (coll) {
    case MG_CAT_ALLGATHER:
    case MG_CAT_ALLTOALL:
    case MG_CAT_ALLREDUCE:
    case MG_CAT_SCAN:
    case MG_CAT_REDUCE_SCATTER_BLOCK:
    case MG_CAT_REDUCE_SCATTER:
    case MG_CAT_ALLGATHERV:
    case MG_CAT_ALLTOALLV:
    case MG_CAT_EXSCAN:
        return 1;
    case MG_CAT_BCAST:
    case MG_CAT_BARRIER:
        return 0;
    default:
        return 2;
    }
}

int mg_rcase_comm(uint64_t seed, int coll, int64_t index) {
    rng r = stream(seed, coll, index);
    return (int)below(&r, MG_RC_COUNT);
}

void mg_rcase_free(mg_rcase *c) {
    free(c->counts);
    free(c->displs);
    free(c->pairs);
    c->counts = c->displs = c->pairs = NULL;
}

/* Alltoallv: rank r moves counts[(r + j) % p] elements to and from rank j (symmetric, so one
 * layout serves both sides and MPI_IN_PLACE), its blocks in rank order with a one-element gap
 * after each. */
static int alltoallv_pairs(mg_rcase *c) {
    int p = c->p;
    c->pairs = malloc(sizeof(int) * 2 * (size_t)p * (size_t)p);
    if (!c->pairs) return -1;
    for (int r = 0; r < p; r++) {
        int64_t at = 0;
        for (int j = 0; j < p; j++) {
            c->pairs[r * p + j] = c->counts[(r + j) % p];
            c->pairs[p * p + r * p + j] = (int)at;
            at += c->counts[(r + j) % p] + 1;
        }
    }
    return 0;
}

/* Reduce_scatter pieces, Gatherv/Scatterv blocks of about `e` elements (some empty), and for
 * the v-collectives displacements in a random order of the ranks with gaps between blocks. */
static void draw_blocks(rng *r, mg_rcase *c, int64_t e) {
    int p = c->p;
    int64_t total = 0;
    for (int i = 0; i < p; i++) {
        c->counts[i] = below(r, 5) == 0 ? 0 : (int)below(r, 2 * e + 1);
        total += c->counts[i];
    }
    if (c->coll == MG_CAT_REDUCE_SCATTER) {
        c->count = total;
        return;
    }
    int *order = malloc(sizeof(int) * (size_t)p);
    if (!order) return;
    for (int i = 0; i < p; i++) order[i] = i;
    for (int i = p - 1; i > 0; i--) {
        int j = (int)below(r, i + 1), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    int64_t at = 0;
    for (int k = 0; k < p; k++) {
        c->displs[order[k]] = (int)at;
        at += c->counts[order[k]] + below(r, 3);
    }
    free(order);
}

int mg_rcase_draw(uint64_t seed, int coll, int64_t index, int p, mg_rcase *c) {
    rng r = stream(seed, coll, index);
    memset(c, 0, sizeof *c);
    c->seed = seed, c->coll = coll, c->index = index, c->p = p;
    c->comm = (int)below(&r, MG_RC_COUNT);
    int reduction = mg_coll_is_reduction(coll), v = mg_coll_is_v(coll);
    c->op = -1;
    if (reduction) {
        c->op = (int)below(&r, MG_ROP_COUNT);
        int allowed[64], n = 0;
        for (int t = 0; t < mg_nrtypes && n < 64; t++)
            if (mg_rop_allowed(c->op, &mg_rtypes[t])) allowed[n++] = t;
        c->type = allowed[below(&r, n)];
    } else {
        c->type = (int)below(&r, mg_nrtypes);
    }
    const mg_rtype *T = &mg_rtypes[c->type];
    c->root = (int)below(&r, p);
    c->inplace = inplace_kind(coll) && below(&r, 10) < 3;
    c->nonsig_null = mg_coll_is_rooted(coll) && coll != MG_CAT_BCAST && below(&r, 2);
    c->place = (int)below(&r, MG_RP_COUNT);
    c->sides = reduction || v ? MG_RS_SAME : (int)below(&r, MG_RS_COUNT);
    /* the count: 0, 1, below p, not a multiple of p, a multiple of p, small, large */
    int64_t k = 1 + below(&r, 4), cls = below(&r, 100), e;
    if (cls < 5)
        c->count_class = 0, e = 0;
    else if (cls < 15)
        c->count_class = 1, e = 1;
    else if (cls < 25)
        c->count_class = 2, e = below(&r, p);
    else if (cls < 45)
        c->count_class = 3, e = k * p + 1 + below(&r, p > 1 ? p - 1 : 1);
    else if (cls < 60)
        c->count_class = 4, e = k * p;
    else if (cls < 90)
        c->count_class = 5, e = 2 + below(&r, 63);
    else
        c->count_class = 6, e = 1000 + below(&r, 30000);
    /* at most 4 MiB in the largest buffer (p blocks) */
    int64_t cap = ((int64_t)4 << 20) / ((int64_t)T->extent * p);
    if (e > cap) e = cap;
    if (c->sides != MG_RS_SAME && e % 2) e++; /* contiguous(2, T) on a side needs even counts */
    c->count = e;
    if (v || coll == MG_CAT_REDUCE_SCATTER) {
        c->counts = calloc((size_t)p, sizeof(int));
        c->displs = calloc((size_t)p, sizeof(int));
        if (!c->counts || !c->displs) {
            mg_rcase_free(c);
            return -1;
        }
        draw_blocks(&r, c, coll == MG_CAT_REDUCE_SCATTER ? (e + p - 1) / p : e);
        if (coll == MG_CAT_ALLTOALLV && alltoallv_pairs(c)) {
            mg_rcase_free(c);
            return -1;
        }
    }
    return 0;
}

int mg_rcase_resize(const mg_rcase *c, int64_t count, mg_rcase *out) {
    *out = *c;
    out->counts = out->displs = out->pairs = NULL;
    if (out->sides != MG_RS_SAME && count % 2) count++;
    out->count = count;
    if (!c->counts) return 0;
    out->counts = calloc((size_t)c->p, sizeof(int));
    out->displs = calloc((size_t)c->p, sizeof(int));
    if (!out->counts || !out->displs) {
        mg_rcase_free(out);
        return -1;
    }
    /* scale every block by count / old, keeping the order of the displacements and a gap of
     * one element between blocks */
    int64_t old = c->count > 0 ? c->count : 1, total = 0;
    for (int i = 0; i < c->p; i++) {
        out->counts[i] = (int)((int64_t)c->counts[i] * count / old);
        total += out->counts[i];
    }
    if (c->coll == MG_CAT_REDUCE_SCATTER) {
        out->count = total;
        return 0;
    }
    if (c->coll == MG_CAT_ALLTOALLV && alltoallv_pairs(out)) {
        mg_rcase_free(out);
        return -1;
    }
    int64_t at = 0;
    for (int64_t d = 0, done = 0; done < c->p; d++) /* ranks by their old displacement */
        for (int i = 0; i < c->p; i++)
            if (c->displs[i] == d) {
                out->displs[i] = (int)at;
                at += out->counts[i] + 1;
                done++;
            }
    return 0;
}

void mg_rcase_describe(const mg_rcase *c, char *buf, size_t len) {
    int n = snprintf(buf, len, "%s p=%d comm=%s type=%s", mg_coll_name(c->coll), c->p,
                     mg_rcomm_names[c->comm], mg_rtypes[c->type].name);
    if (c->op >= 0 && n < (int)len)
        n += snprintf(buf + n, len - (size_t)n, " op=%s", mg_rop_names[c->op]);
    if (n < (int)len)
        n += snprintf(buf + n, len - (size_t)n, " count=%" PRId64 " (%s)", c->count,
                      class_names[c->count_class]);
    if (c->counts && n < (int)len) {
        n += snprintf(buf + n, len - (size_t)n, " counts=");
        for (int i = 0; i < c->p && i < 16 && n < (int)len; i++)
            n += snprintf(buf + n, len - (size_t)n, "%s%d", i ? "," : "", c->counts[i]);
        if (c->p > 16 && n < (int)len) n += snprintf(buf + n, len - (size_t)n, ",...");
    }
    if (c->displs && mg_coll_is_v(c->coll) && n < (int)len) {
        n += snprintf(buf + n, len - (size_t)n, " displs=");
        for (int i = 0; i < c->p && i < 16 && n < (int)len; i++)
            n += snprintf(buf + n, len - (size_t)n, "%s%d", i ? "," : "", c->displs[i]);
    }
    if (mg_coll_is_rooted(c->coll) && n < (int)len)
        n += snprintf(buf + n, len - (size_t)n, " root=%d", c->root);
    if (inplace_kind(c->coll) && n < (int)len)
        n += snprintf(buf + n, len - (size_t)n, " inplace=%s", c->inplace ? "yes" : "no");
    if (mg_coll_is_rooted(c->coll) && c->coll != MG_CAT_BCAST && n < (int)len)
        n += snprintf(buf + n, len - (size_t)n, " nonroot-args=%s",
                      c->nonsig_null ? "null" : "buffer");
    if (n < (int)len) n += snprintf(buf + n, len - (size_t)n, " place=%s", place_names[c->place]);
    if (c->sides != MG_RS_SAME && n < (int)len)
        snprintf(buf + n, len - (size_t)n, " sides=%s", side_names[c->sides]);
}

/* ---- arguments ---- */

static void buffer(mg_rargs *a, int b, int64_t n) {
    a->has[b] = 1;
    a->n[b] = a->defined[b] = n;
}

static void absent(mg_rargs *a, int b, int how) {
    a->has[b] = 0;
    a->fixed[b] = how;
    a->n[b] = a->defined[b] = 0;
}

/* Largest displs[i] + counts[i]: the elements a v-collective's root buffer spans. */
static int64_t v_span(const mg_rcase *c) {
    int64_t span = 0;
    for (int i = 0; i < c->p; i++)
        if (c->displs[i] + (int64_t)c->counts[i] > span)
            span = c->displs[i] + (int64_t)c->counts[i];
    return span;
}

void mg_rcase_args(const mg_rcase *c, int rank, mg_rargs *a) {
    int p = c->p, root = rank == c->root;
    int64_t e = c->count;
    memset(a, 0, sizeof *a);
    a->root = c->root;
    a->sendwide = c->sides == MG_RS_SENDWIDE || (c->sides == MG_RS_MIXED && rank % 2 == 0);
    a->recvwide = c->sides == MG_RS_RECVWIDE || (c->sides == MG_RS_MIXED && rank % 2 == 1);
    a->sendcount = a->sendwide ? e / 2 : e;
    a->recvcount = a->recvwide ? e / 2 : e;
    switch (c->coll) {
    case MG_CAT_ALLGATHER:
    case MG_CAT_ALLTOALL:
        buffer(a, MG_RB_SEND, c->coll == MG_CAT_ALLGATHER ? e : p * e);
        buffer(a, MG_RB_RECV, p * e);
        if (c->inplace) {
            absent(a, MG_RB_SEND, MG_RF_INPLACE);
            a->sendcount = 0, a->null_type[MG_RB_SEND] = 1;
        }
        break;
    case MG_CAT_BCAST: /* one buffer and one datatype per rank: the root's is the send side */
        a->recvwide = root ? a->sendwide : a->recvwide;
        a->recvcount = a->sendcount = a->recvwide ? e / 2 : e;
        absent(a, MG_RB_SEND, MG_RF_SAME);
        buffer(a, MG_RB_RECV, e);
        break;
    case MG_CAT_GATHER:
    case MG_CAT_SCATTER: {
        int gather = c->coll == MG_CAT_GATHER, big = gather ? MG_RB_RECV : MG_RB_SEND;
        buffer(a, MG_RB_SEND, gather ? e : p * e);
        buffer(a, MG_RB_RECV, gather ? p * e : e);
        if (root && c->inplace) { /* the root's own block stays where it is */
            absent(a, gather ? MG_RB_SEND : MG_RB_RECV, MG_RF_INPLACE);
            if (gather)
                a->sendcount = 0, a->null_type[MG_RB_SEND] = 1;
            else
                a->recvcount = 0, a->null_type[MG_RB_RECV] = 1;
        }
        if (!root && c->nonsig_null) {
            absent(a, big, MG_RF_NULL);
            a->null_type[big] = 1;
            if (gather)
                a->recvcount = 0;
            else
                a->sendcount = 0;
        }
        break;
    }
    case MG_CAT_GATHERV:
    case MG_CAT_SCATTERV: {
        int gather = c->coll == MG_CAT_GATHERV, big = gather ? MG_RB_RECV : MG_RB_SEND;
        int64_t mine = c->counts[rank];
        buffer(a, MG_RB_SEND, gather ? mine : v_span(c));
        buffer(a, MG_RB_RECV, gather ? v_span(c) : mine);
        a->sendcount = a->recvcount = mine;
        if (gather)
            a->recvcounts = c->counts, a->rdispls = c->displs;
        else
            a->sendcounts = c->counts, a->sdispls = c->displs;
        if (root && c->inplace) {
            absent(a, gather ? MG_RB_SEND : MG_RB_RECV, MG_RF_INPLACE);
            if (gather)
                a->sendcount = 0, a->null_type[MG_RB_SEND] = 1;
            else
                a->recvcount = 0, a->null_type[MG_RB_RECV] = 1;
        }
        if (!root && c->nonsig_null) {
            absent(a, big, MG_RF_NULL);
            a->null_type[big] = 1;
            if (gather)
                a->recvcounts = a->rdispls = NULL;
            else
                a->sendcounts = a->sdispls = NULL;
        }
        break;
    }
    case MG_CAT_ALLGATHERV: {
        int64_t mine = c->counts[rank];
        buffer(a, MG_RB_SEND, mine);
        buffer(a, MG_RB_RECV, v_span(c));
        a->sendcount = mine;
        a->recvcounts = c->counts, a->rdispls = c->displs;
        if (c->inplace) {
            absent(a, MG_RB_SEND, MG_RF_INPLACE);
            a->sendcount = 0, a->null_type[MG_RB_SEND] = 1;
        }
        break;
    }
    case MG_CAT_ALLTOALLV: {
        int *cnt = c->pairs + rank * p, *dsp = c->pairs + p * p + rank * p;
        int64_t span = dsp[p - 1] + (int64_t)cnt[p - 1];
        buffer(a, MG_RB_SEND, span);
        buffer(a, MG_RB_RECV, span);
        a->sendcounts = a->recvcounts = cnt;
        a->sdispls = a->rdispls = dsp;
        if (c->inplace) {
            absent(a, MG_RB_SEND, MG_RF_INPLACE);
            a->sendcounts = a->sdispls = NULL, a->null_type[MG_RB_SEND] = 1;
        }
        break;
    }
    case MG_CAT_BARRIER:
        absent(a, MG_RB_SEND, MG_RF_NULL);
        absent(a, MG_RB_RECV, MG_RF_NULL);
        a->null_type[MG_RB_SEND] = a->null_type[MG_RB_RECV] = 1;
        a->sendcount = a->recvcount = 0;
        break;
    case MG_CAT_ALLREDUCE:
    case MG_CAT_SCAN:
    case MG_CAT_EXSCAN:
        buffer(a, MG_RB_SEND, e);
        buffer(a, MG_RB_RECV, e);
        if (c->inplace) absent(a, MG_RB_SEND, MG_RF_INPLACE);
        if (c->coll == MG_CAT_EXSCAN && rank == 0) a->defined[MG_RB_RECV] = 0; /* undefined */
        break;
    case MG_CAT_REDUCE:
        buffer(a, MG_RB_SEND, e);
        buffer(a, MG_RB_RECV, e);
        if (root && c->inplace) absent(a, MG_RB_SEND, MG_RF_INPLACE);
        if (!root && c->nonsig_null) absent(a, MG_RB_RECV, MG_RF_NULL);
        break;
    case MG_CAT_REDUCE_SCATTER_BLOCK:
        buffer(a, MG_RB_SEND, p * e);
        buffer(a, MG_RB_RECV, e);
        if (c->inplace) { /* the input is p blocks in recvbuf; the first is the result */
            absent(a, MG_RB_SEND, MG_RF_INPLACE);
            a->n[MG_RB_RECV] = p * e;
            a->defined[MG_RB_RECV] = e;
        }
        break;
    case MG_CAT_REDUCE_SCATTER:
        a->recvcounts = c->counts;
        buffer(a, MG_RB_SEND, e);
        buffer(a, MG_RB_RECV, c->counts[rank]);
        a->sendcount = a->recvcount = 0;
        if (c->inplace) {
            absent(a, MG_RB_SEND, MG_RF_INPLACE);
            a->n[MG_RB_RECV] = e;
            a->defined[MG_RB_RECV] = c->counts[rank];
        }
        break;
    default:
        break;
    }
}

/* ---- buffers ---- */

size_t mg_rslots(const mg_rtype *t, int64_t n, size_t *origin) {
    int64_t lo = t->lb < t->true_lb ? t->lb : t->true_lb;
    int64_t hi = n > 0 ? (n - 1) * t->extent + t->true_lb + t->true_extent : 0;
    if (n * t->extent + t->lb > hi) hi = n * t->extent + t->lb;
    if (n <= 0) hi = t->lb + t->extent; /* one slot */
    *origin = (size_t)-lo;
    return (size_t)(hi - lo);
}

void mg_rgeometry(const mg_rcase *c, const mg_rargs *a, mg_rgeom g[MG_RB_NBUFS], size_t size[2]) {
    const mg_rtype *T = &mg_rtypes[c->type];
    size_t slots[MG_RB_NBUFS], origin[MG_RB_NBUFS];
    memset(g, 0, sizeof(mg_rgeom) * MG_RB_NBUFS);
    size[0] = size[1] = 0;
    for (int b = 0; b < MG_RB_NBUFS; b++) slots[b] = mg_rslots(T, a->n[b], &origin[b]);
    int both = a->has[MG_RB_SEND] && a->has[MG_RB_RECV];
    if (both && (c->place == MG_RP_SEND_RECV || c->place == MG_RP_RECV_SEND)) {
        int first = c->place == MG_RP_SEND_RECV ? MG_RB_SEND : MG_RB_RECV, second = 1 - first;
        g[first] = (mg_rgeom){0, 0, MG_RGUARD + slots[first], MG_RGUARD + origin[first]};
        g[second] =
            (mg_rgeom){0, MG_RGUARD + slots[first], slots[second] + MG_RGUARD, origin[second]};
        size[0] = 2 * MG_RGUARD + slots[first] + slots[second];
        return;
    }
    size_t skew = c->place == MG_RP_MISALIGNED ? 1 : 0;
    for (int b = 0, block = 0; b < MG_RB_NBUFS; b++) {
        if (!a->has[b]) continue;
        g[b] = (mg_rgeom){block, skew, 2 * MG_RGUARD + slots[b], MG_RGUARD + origin[b]};
        size[block++] = skew + 2 * MG_RGUARD + slots[b];
    }
}

/* The key of one field value: (case, rank, buffer, element, field). */
static uint64_t value_key(const mg_rcase *c, int rank, int which, int64_t elem, int field) {
    uint64_t k = mix(c->seed ^ mix((uint64_t)c->coll << 40 ^ (uint64_t)c->index));
    return mix(k ^ mix((uint64_t)rank << 36 ^ (uint64_t)which << 34 ^ (uint64_t)elem << 3 ^
                       (uint64_t)field));
}

/* Writes the values of elements [from, from + n) of rank's buffer `which` at dst's elements
 * [to, to + n) (origins at dst). */
static void values(const mg_rcase *c, int rank, int which, int64_t from, int64_t n, char *dst,
                   int64_t to) {
    const mg_rtype *T = &mg_rtypes[c->type];
    for (int64_t k = 0; k < n; k++)
        for (int f = 0; f < T->nfields; f++)
            mg_rvalue(c->op, T->f[f].basic, f, value_key(c, rank, which, from + k, f),
                      dst + (to + k) * T->extent + T->f[f].off);
}

void mg_rfill(const mg_rcase *c, int rank, int which, const mg_rargs *a, mg_rmem *m) {
    for (size_t i = 0; i < m->bytes; i++)
        m->mem[i] = (unsigned char)(0xA5 ^ (i * 29) ^ (size_t)which << 3);
    values(c, rank, which, 0, a->n[which], (char *)m->mem + m->origin, 0);
}

/* The buffer rank `src` reads its input from (the receive buffer where it passes MPI_IN_PLACE)
 * and where block `blk` of e elements starts in it (a caller whose send buffer holds a single
 * block reads that from 0). */
static int input_of(const mg_rcase *c, int src, int64_t *first, int64_t blk, int64_t e) {
    int inplace = c->inplace && (inplace_kind(c->coll) == 1 || src == c->root);
    *first = blk * e;
    return inplace ? MG_RB_RECV : MG_RB_SEND;
}

/* acc (n elements at origin acc) = x_lo op ... op x_hi, where x_i is element range [first, +n)
 * of rank i's input (first per rank from `first_of`), folded from the right as MPI defines it. */
static int fold(const mg_rcase *c, int lo, int hi, int64_t blk, int64_t n, char *acc) {
    const mg_rtype *T = &mg_rtypes[c->type];
    size_t origin, bytes = mg_rslots(T, n, &origin);
    char *x = calloc(1, bytes);
    if (!x) return -1;
    int64_t first;
    int which = input_of(c, hi, &first, blk, n);
    values(c, hi, which, first, n, acc, 0);
    for (int i = hi - 1; i >= lo; i--) {
        which = input_of(c, i, &first, blk, n);
        values(c, i, which, first, n, x + origin, 0);
        mg_rop_apply(c->op, T, x + origin, acc, n);
    }
    free(x);
    return 0;
}

/* Copies the data fields of n elements from src (origin) to dst (origin). */
static void copy_fields(const mg_rtype *T, const char *src, char *dst, int64_t n) {
    for (int64_t k = 0; k < n; k++)
        for (int f = 0; f < T->nfields; f++)
            memcpy(dst + k * T->extent + T->f[f].off, src + k * T->extent + T->f[f].off,
                   (size_t)mg_rbasics[T->f[f].basic].size);
}

/* Marks the data-field bytes of elements [from, n) as not compared. */
static void dont_care(const mg_rtype *T, unsigned char *care, size_t origin, int64_t from,
                      int64_t n) {
    for (int64_t k = from; k < n; k++)
        for (int f = 0; f < T->nfields; f++)
            memset(care + origin + k * T->extent + T->f[f].off, 0,
                   (size_t)mg_rbasics[T->f[f].basic].size);
}

int mg_rexpect(const mg_rcase *c, int rank, int which, const mg_rargs *a, mg_rmem *m) {
    const mg_rtype *T = &mg_rtypes[c->type];
    int p = c->p, root = rank == c->root;
    int64_t e = c->count, first;
    char *out = (char *)m->mem + m->origin;
    m->care = malloc(m->bytes ? m->bytes : 1);
    if (!m->care) return -1;
    memset(m->care, 1, m->bytes);
    dont_care(T, m->care, m->origin, a->defined[which], a->n[which]);
    if (which != MG_RB_RECV || !a->has[MG_RB_RECV]) return 0; /* send buffers stay as they are */
    switch (c->coll) {
    case MG_CAT_ALLGATHER: /* a send buffer holds one block; in place it is block i of recvbuf */
        for (int i = 0; i < p; i++) {
            int w = input_of(c, i, &first, i, e);
            values(c, i, w, w == MG_RB_RECV ? first : 0, e, out, i * e);
        }
        return 0;
    case MG_CAT_ALLTOALL:
        for (int i = 0; i < p; i++) {
            int w = input_of(c, i, &first, rank, e);
            values(c, i, w, first, e, out, i * e);
        }
        return 0;
    case MG_CAT_BCAST:
        values(c, c->root, MG_RB_RECV, 0, e, out, 0);
        return 0;
    case MG_CAT_GATHER:
        if (!root) return 0; /* insignificant: untouched */
        for (int i = 0; i < p; i++) {
            int w = input_of(c, i, &first, i, e);
            values(c, i, w, w == MG_RB_RECV ? first : 0, e, out, i * e);
        }
        return 0;
    case MG_CAT_SCATTER:
        values(c, c->root, MG_RB_SEND, (int64_t)rank * e, e, out, 0);
        return 0;
    case MG_CAT_GATHERV:
        if (!root) return 0;
        for (int i = 0; i < p; i++)
            if (!(i == rank && c->inplace))
                values(c, i, MG_RB_SEND, 0, c->counts[i], out, c->displs[i]);
        return 0;
    case MG_CAT_SCATTERV:
        values(c, c->root, MG_RB_SEND, c->displs[rank], c->counts[rank], out, 0);
        return 0;
    case MG_CAT_ALLGATHERV: /* in place, rank i's block is at its place in its recvbuf */
        for (int i = 0; i < p; i++) {
            int w = c->inplace ? MG_RB_RECV : MG_RB_SEND;
            values(c, i, w, c->inplace ? c->displs[i] : 0, c->counts[i], out, c->displs[i]);
        }
        return 0;
    case MG_CAT_ALLTOALLV: /* block r of rank i's buffer (send, or recv in place) */
        for (int i = 0; i < p; i++)
            values(c, i, c->inplace ? MG_RB_RECV : MG_RB_SEND, c->pairs[p * p + i * p + rank],
                   c->pairs[i * p + rank], out, c->pairs[p * p + rank * p + i]);
        return 0;
    case MG_CAT_EXSCAN: /* rank 0's result is undefined (not compared: defined is 0) */
        return rank ? fold(c, 0, rank - 1, 0, e, out) : 0;
    case MG_CAT_REDUCE:
        if (!root) return 0;
        /* fall through */
    case MG_CAT_ALLREDUCE:
        return fold(c, 0, p - 1, 0, e, out);
    case MG_CAT_SCAN:
        return fold(c, 0, rank, 0, e, out);
    case MG_CAT_REDUCE_SCATTER_BLOCK: {
        /* the fold of block `rank` lands in element 0.. of recvbuf */
        size_t origin, bytes = mg_rslots(T, e, &origin);
        char *acc = calloc(1, bytes);
        if (!acc) return -1;
        int rc = fold(c, 0, p - 1, rank, e, acc + origin);
        if (!rc) copy_fields(T, acc + origin, out, e);
        free(acc);
        return rc;
    }
    case MG_CAT_REDUCE_SCATTER: {
        int64_t at = 0, mine = c->counts[rank];
        for (int i = 0; i < rank; i++) at += c->counts[i];
        size_t origin, bytes = mg_rslots(T, e, &origin);
        char *acc = calloc(1, bytes);
        if (!acc) return -1;
        int rc = fold(c, 0, p - 1, 0, e, acc + origin);
        if (!rc) copy_fields(T, acc + origin + at * T->extent, out, mine);
        free(acc);
        return rc;
    }
    default:
        return 0;
    }
}

/* The element and field that byte o (relative to element 0's origin) belongs to: 1 with *k and
 * *f, or 0 for a hole, padding or guard. */
static int locate(const mg_rtype *T, int64_t n, int64_t o, int64_t *k, int *f) {
    for (int64_t e = (o - T->true_lb - T->true_extent) / T->extent - 1;
         e <= (o - T->lb) / T->extent + 1; e++) {
        if (e < 0 || e >= n) continue;
        for (int j = 0; j < T->nfields; j++) {
            int64_t at = e * T->extent + T->f[j].off;
            if (o >= at && o < at + mg_rbasics[T->f[j].basic].size) {
                *k = e, *f = j;
                return 1;
            }
        }
    }
    return 0;
}

int64_t mg_rdiff(const mg_rcase *c, const mg_rargs *a, int which, const mg_rmem *exp,
                 const unsigned char *got, char *msg, size_t len) {
    const mg_rtype *T = &mg_rtypes[c->type];
    int64_t first = -1, ndiff = 0;
    for (size_t i = 0; i < exp->bytes; i++)
        if ((!exp->care || exp->care[i]) && exp->mem[i] != got[i]) {
            if (first < 0) first = (int64_t)i;
            ndiff++;
        }
    if (first < 0) return -1;
    int64_t o = first - (int64_t)exp->origin, k;
    int f;
    const char *name = which == MG_RB_SEND ? "sendbuf" : "recvbuf";
    if (locate(T, a->n[which], o, &k, &f)) {
        char ev[64], gv[64];
        int64_t at = (int64_t)exp->origin + k * T->extent + T->f[f].off;
        mg_rvalue_text(T->f[f].basic, exp->mem + at, ev, sizeof ev);
        mg_rvalue_text(T->f[f].basic, got + at, gv, sizeof gv);
        snprintf(msg, len,
                 "%s: %" PRId64 " byte(s) differ; first: element %" PRId64 " of %" PRId64
                 ", field %d: expected %s, got %s",
                 name, ndiff, k, a->n[which], f, ev, gv);
    } else {
        snprintf(msg, len,
                 "%s: %" PRId64 " byte(s) differ; first at byte %+" PRId64
                 " from element 0's origin, outside every data field (a hole, padding or a "
                 "guard, which must stay untouched): expected 0x%02x, got 0x%02x",
                 name, ndiff, o, exp->mem[first], got[first]);
    }
    return first;
}
