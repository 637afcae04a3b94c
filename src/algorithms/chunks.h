/* Splitting a vector of n elements over p ranks for the Reduce_scatter based mock-ups (GL7,
 * GL16): whole chunks of C elements, q = n / (C p) per rank, the rest round-robin in chunks of
 * C, so no rank gets a tiny piece. Pure arithmetic, shared by every rank. */
#ifndef MG_CHUNKS_H
#define MG_CHUNKS_H

#include <stddef.h>
#include <stdint.h>

/* Chunk size in bytes the split aims for (documented in docs/algorithms-reductions.md). */
#define MG_CHUNK_BYTES 1024

static inline int64_t mg_chunk_elems(size_t tsize) {
    return tsize == 0 || tsize >= MG_CHUNK_BYTES ? 1 : (int64_t)(MG_CHUNK_BYTES / tsize);
}

/* Smallest multiple of p not below n. */
static inline int64_t mg_padded(int64_t n, int p) {
    return (n + p - 1) / p * p;
}

/* counts[i] and displs[i] (elements) of rank i; they sum to n in rank order. */
static inline void mg_chunk_counts(int64_t n, int p, int64_t c, int *counts, int *displs) {
    int64_t q = n / (c * p) * c, rest = n - q * p, at = 0;
    for (int i = 0; i < p; i++) {
        int64_t extra = rest - (int64_t)i * c;
        extra = extra < 0 ? 0 : extra > c ? c : extra;
        counts[i] = (int)(q + extra);
        displs[i] = (int)at;
        at += q + extra;
    }
}

/* 1 when mg_chunk_counts() gives every rank the same count (no remainder to spread). */
static inline int mg_chunk_regular(int64_t n, int p, int64_t c) {
    return p == 1 || n - n / (c * p) * c * p == 0;
}

/* 1 when mg_chunk_counts() leaves some rank without elements: no whole chunk per rank, and the
 * rest, dealt out chunk by chunk, does not reach the last rank. */
static inline int mg_chunk_zeros(int64_t n, int p, int64_t c) {
    return n / (c * p) == 0 && n <= (int64_t)(p - 1) * c;
}

/* The largest count mg_chunk_counts() gives any rank. */
static inline int64_t mg_chunk_max(int64_t n, int p, int64_t c) {
    int64_t q = n / (c * p) * c, rest = n - q * p;
    return q + (rest < c ? rest : c);
}

#endif
