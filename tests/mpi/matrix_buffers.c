/* Buffers of the matrix: n element slots of a test datatype between two guards, filled with a
 * position-dependent sentinel and then values in the data fields only, so a write into a hole
 * or past either end changes bytes the library's own collective leaves alone. Comparison is
 * over the whole allocation and names the first differing byte. */
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

int mx_buf_alloc(mx_buf *b, const mx_type *T, int64_t n, int64_t defined) {
    memset(b, 0, sizeof *b);
    b->T = T;
    b->n = n;
    b->defined = defined;
    /* element slot k covers [k * extent + lb, (k + 1) * extent + lb) */
    b->bytes = 2 * GUARD + (size_t)(n * T->extent);
    b->mem = malloc(b->bytes);
    if (!b->mem) return -1;
    b->ptr = (char *)b->mem + GUARD - T->lb;
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

int mx_buf_clone(mx_buf *dst, const mx_buf *src) {
    if (mx_buf_alloc(dst, src->T, src->n, src->defined)) return -1;
    memcpy(dst->mem, src->mem, src->bytes);
    return 0;
}

void mx_buf_free(mx_buf *b) {
    free(b->mem);
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
