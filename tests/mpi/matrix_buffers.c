/* Buffers of the matrix: n element slots of a test datatype between two guards (or next to the
 * other buffer of the call, per the placement dimension), filled with a position-dependent sentinel
 * and then values in the data fields only, so a write into a hole or past either end changes bytes
 * the library's own collective leaves alone. Comparison is over the whole allocation and names the
 * first differing byte. */
#include "matrix.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD 64

static uint64_t mix(uint64_t x) { /* splitmix64 */
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static int field_size(const mx_field *f) {
    return f->dbl ? (int)sizeof(double) : (int)sizeof(int);
}

/* A view of n slots of T whose first slot starts at byte `at` of mem (guards are part of the
 * bytes the caller hands over). */
static void view(mx_buf *b, const mx_type *T, int64_t n, int64_t defined, unsigned char *mem,
                 size_t bytes, size_t at) {
    b->T = T;
    b->n = n;
    b->defined = defined;
    b->mem = mem;
    b->bytes = bytes;
    /* element slot k covers [k * extent + lb, (k + 1) * extent + lb) */
    b->ptr = (char *)mem + at - T->lb;
}

/* Separate allocation, its data starting `skew` bytes past an aligned address. */
static int alloc_apart(mx_buf *b, const mx_type *T, int64_t n, int64_t defined, size_t skew) {
    memset(b, 0, sizeof *b);
    size_t bytes = 2 * GUARD + (size_t)(n * T->extent);
    b->block = malloc(bytes + skew);
    if (!b->block) return -1;
    view(b, T, n, defined, b->block + skew, bytes, GUARD);
    return 0;
}

int mx_buf_alloc(mx_buf *b, const mx_type *T, int64_t n, int64_t defined) {
    return alloc_apart(b, T, n, defined, 0);
}

int mx_bufs_alloc(mx_buf b[MX_NBUFS], const mx_setup *S) {
    int place = S->place;
    memset(b, 0, sizeof(mx_buf) * MX_NBUFS);
    int both = S->has[MX_SEND] && S->has[MX_RECV];
    if (!both || place == MX_PLACE_APART || place == MX_PLACE_MISALIGNED) {
        size_t skew = place == MX_PLACE_MISALIGNED ? 1 : 0;
        for (int k = 0; k < MX_NBUFS; k++)
            if (S->has[k] && alloc_apart(&b[k], S->T, S->n[k], S->defined[k], skew)) return -1;
        return 0;
    }
    /* one allocation: guard, first buffer, second buffer, guard; an empty buffer still takes
     * one slot, since MPICH rejects equal send and receive pointers whatever the count (a
     * program that passes them is not ours to test) */
    int first = place == MX_PLACE_SEND_RECV ? MX_SEND : MX_RECV, second = MX_NBUFS - 1 - first;
    size_t len1 = (size_t)((S->n[first] ? S->n[first] : 1) * S->T->extent);
    size_t len2 = (size_t)((S->n[second] ? S->n[second] : 1) * S->T->extent);
    unsigned char *block = malloc(2 * GUARD + len1 + len2);
    if (!block) return -1;
    view(&b[first], S->T, S->n[first], S->defined[first], block, GUARD + len1, GUARD);
    view(&b[second], S->T, S->n[second], S->defined[second], block + GUARD + len1, len2 + GUARD, 0);
    b[first].block = block;
    return 0;
}

int mx_bufs_clone(mx_buf dst[MX_NBUFS], const mx_buf src[MX_NBUFS], const mx_setup *S) {
    if (mx_bufs_alloc(dst, S)) return -1;
    for (int k = 0; k < MX_NBUFS; k++)
        if (S->has[k]) memcpy(dst[k].mem, src[k].mem, src[k].bytes);
    return 0;
}

void mx_buf_fill(mx_buf *b, uint64_t seed, int values) {
    for (size_t i = 0; i < b->bytes; i++) b->mem[i] = (unsigned char)(0xA5 ^ (i * 29));
    const mx_type *T = b->T;
    for (int64_t k = 0; k < b->n; k++)
        for (int j = 0; j < T->nfields; j++) {
            uint64_t h = mix(seed ^ mix((uint64_t)k * 8 + (uint64_t)j));
            char *at = b->ptr + k * T->extent + T->f[j].off;
            int32_t small = (int32_t)(h % 32768) - 16384;
            uint32_t bits = (uint32_t)h;
            if (T->f[j].dbl) {
                double v = values == MX_VALUES_SMALL ? (double)small : (double)bits;
                memcpy(at, &v, sizeof v);
            } else {
                uint32_t v = values == MX_VALUES_SMALL ? (uint32_t)small : bits;
                memcpy(at, &v, sizeof v);
            }
        }
}

void mx_buf_free(mx_buf *b) {
    free(b->block);
    memset(b, 0, sizeof *b);
}

static int64_t floor_div(int64_t a, int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Where byte o (relative to ptr) lies: -1 guard, otherwise its element in *k and its field in
 * *field (-1: a hole of the element). */
static int locate(const mx_buf *b, int64_t o, int64_t *k, int *field) {
    const mx_type *T = b->T;
    *k = floor_div(o - T->lb, T->extent);
    *field = -1;
    if (*k < 0 || *k >= b->n) return -1;
    int64_t within = o - *k * T->extent;
    for (int j = 0; j < T->nfields; j++)
        if (within >= T->f[j].off && within < T->f[j].off + field_size(&T->f[j])) *field = j;
    return 0;
}

static void field_value(const mx_buf *b, int64_t k, int j, char *out, size_t len) {
    const char *at = b->ptr + k * b->T->extent + b->T->f[j].off;
    if (b->T->f[j].dbl) {
        double v;
        memcpy(&v, at, sizeof v);
        snprintf(out, len, "%.17g", v);
    } else {
        int32_t v;
        memcpy(&v, at, sizeof v);
        snprintf(out, len, "%" PRId32 " (0x%08" PRIx32 ")", v, (uint32_t)v);
    }
}

int mx_buf_diff(const mx_buf *ref, const mx_buf *got, const char *name, char *msg, size_t len) {
    if (!memcmp(ref->mem, got->mem, ref->bytes)) return 0;
    int64_t first = -1, ndiff = 0, base = (int64_t)(ref->ptr - (char *)ref->mem);
    for (size_t i = 0; i < ref->bytes; i++) {
        if (ref->mem[i] == got->mem[i]) continue;
        int64_t k;
        int field;
        int where = locate(ref, (int64_t)i - base, &k, &field);
        if (where == 0 && field >= 0 && k >= ref->defined) continue; /* undefined by MPI */
        if (first < 0) first = (int64_t)i;
        ndiff++;
    }
    if (first < 0) return 0;
    int64_t o = first - base, k;
    int field;
    int where = locate(ref, o, &k, &field);
    char what[160], ev[64] = "", gv[64] = "";
    if (where < 0)
        snprintf(what, sizeof what, "%s guard", o < 0 ? "lower" : "upper");
    else if (field < 0)
        snprintf(what, sizeof what, "element %" PRId64 " of %" PRId64 ", a hole", k, ref->n);
    else {
        field_value(ref, k, field, ev, sizeof ev);
        field_value(got, k, field, gv, sizeof gv);
        snprintf(what, sizeof what,
                 "element %" PRId64 " of %" PRId64 ", field %d: expected %s got %s", k, ref->n,
                 field, ev, gv);
    }
    snprintf(msg, len,
             "%s (%s x %" PRId64 "): %" PRId64 " byte(s) differ, first at offset %+" PRId64
             " (%s; byte expected 0x%02x got 0x%02x)",
             name, ref->T->name, ref->n, ndiff, o, what, ref->mem[first], got->mem[first]);
    return 1;
}
