/* The selection table of tuned mode: every loaded profile flattened into one
 * position-independent block of bytes, which rank 0 builds and broadcasts so every rank looks
 * up the same table. Lookup is a hash of (collective, communicator size), O(1), then a
 * binary search over that profile's sorted ranges, O(log M). Several profiles of one
 * (collective, size), one per (element size, op class), form a chain: the hash yields its
 * first, and only a call that the first does not accept walks on (mg_seltab_match). Pure. */
#ifndef MG_SELTAB_H
#define MG_SELTAB_H

#include "profile.h"
#include <stddef.h>
#include <stdint.h>

typedef struct mg_selprof {
    int32_t coll, p;
    uint32_t first, n; /* its ranges: lo/hi/alg[first .. first + n) */
    /* What the profile was measured with (#@datatype, #@operation): the element size and, for
     * reductions, the op class (catalog) a call must have for the profile to apply; 0 accepts
     * any (unknown, or MPIGUIDE_MATCH=size). */
    int32_t esize, opclass;
    /* The next profile of the same (coll, p), -1 for none. The chain holds the profiles that
     * name both an element size and an op class first, then those naming one, then those naming
     * neither (each group in load order), so the most specific one that accepts a call wins. */
    int32_t next;
    int32_t spare; /* 0: 32 bytes, so that the hot path indexes with a shift */
} mg_selprof;

/* A view into a table (pointers into the block; valid while the block lives). */
typedef struct mg_selview {
    uint32_t nprof, mask; /* hash slots: mask + 1, a power of two */
    uint64_t nranges;
    const mg_selprof *prof;
    const int32_t *slot; /* profile index, -1 for an empty slot */
    const int64_t *lo, *hi;
    const int32_t *alg;
} mg_selview;

/* What a call must have for profile p to apply: the element size of its #@datatype (0 for
 * none, an unknown one, or a collective without a shared size) and, for reductions, the op
 * class of its #@operation (0 for none). Two profiles of one (coll, p) with the same pair are
 * one too many (the loader keeps the first). */
void mg_seltab_key(const mg_profile *p, int *esize, int *opclass);
/* Flattens the profiles into a new block (malloc); 0, or -1 when out of memory or larger
 * than 1 GiB. */
int mg_seltab_build(const mg_profile_set *set, void **block, size_t *bytes);
/* MPIGUIDE_MATCH=size: every profile applies whatever the call's datatype and op (rank 0,
 * before the block is broadcast); of a chain only its first is then ever taken. */
void mg_seltab_match_size(void *block);
/* Validates a block (e.g. one received from rank 0) and fills the view; 0 or -1. */
int mg_seltab_view(const void *block, size_t bytes, mg_selview *v);

static inline uint32_t mg_seltab_hash(int coll, int p) {
    uint32_t h = (uint32_t)coll * 0x9E3779B1u ^ (uint32_t)p * 0x85EBCA6Bu;
    return h ^ (h >> 15);
}

/* The first profile of (collective, communicator size), or -1. */
static inline int mg_seltab_find(const mg_selview *v, int coll, int p) {
    if (!v->nprof) return -1;
    for (uint32_t h = mg_seltab_hash(coll, p) & v->mask;; h = (h + 1) & v->mask) {
        int32_t i = v->slot[h];
        if (i < 0) return -1;
        if (v->prof[i].coll == coll && v->prof[i].p == p) return i;
    }
}

/* Does profile P accept a call of element size esize and op class opclass (0 for a call
 * that is not a reduction)? A 0 in the profile accepts any. */
static inline int mg_seltab_accepts(const mg_selprof *P, int esize, int opclass) {
    return (!P->esize || P->esize == esize) && (!P->opclass || P->opclass == opclass);
}

/* The first profile of prof's chain, prof itself included, that accepts the call; -1 for
 * none. */
static inline int mg_seltab_match(const mg_selview *v, int prof, int esize, int opclass) {
    for (; prof >= 0; prof = v->prof[prof].next)
        if (mg_seltab_accepts(&v->prof[prof], esize, opclass)) return prof;
    return -1;
}

/* Algorithm of the range holding msize in profile `prof`, or -1: the last range starting at
 * or below msize, found by a branch-free binary search, must also end at or above it. */
static inline int mg_seltab_search(const mg_selview *v, int prof, int64_t msize) {
    const mg_selprof *P = &v->prof[prof];
    const int64_t *base = v->lo + P->first;
    uint32_t n = P->n;
    if (!n || msize < base[0]) return -1;
    while (n > 1) {
        uint32_t half = n / 2;
        base = base[half] <= msize ? base + half : base;
        n -= half;
    }
    size_t i = (size_t)(base - v->lo);
    return v->hi[i] >= msize ? v->alg[i] : -1;
}

#endif
