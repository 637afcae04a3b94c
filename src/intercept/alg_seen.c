/* Which algorithm ran last for each (collective, message size), for the report's `#@pgmpi alg`
 * lines: a fixed table filled from the decisions (no allocation on the hot path); a size that
 * finds no room counts as `other`. */
#include "intercept.h"
#include <stdlib.h>

#define SEEN_PROBE 16

_Static_assert(MPIGUIDE_COLL_COUNT <= 32, "collective ids must fit 5 bits of the seen key");

typedef struct seen_slot {
    _Atomic uint64_t key; /* ((msize << 5) | coll) + 1; 0 = empty */
    _Atomic int32_t alg;
} seen_slot;

static seen_slot seen_table[MG_SEEN_SLOTS];

void mg_report_seen(int coll, int64_t msize, int alg) {
    if (msize < 0 || msize >= ((int64_t)1 << 58)) {
        mg_count(coll, MG_N_OTHER);
        return;
    }
    uint64_t key = ((uint64_t)msize << 5 | (uint64_t)coll) + 1;
    uint32_t h = mg_hslot(key, MG_SEEN_BITS);
    for (int i = 0; i < SEEN_PROBE; i++, h = (h + 1) & (MG_SEEN_SLOTS - 1)) {
        seen_slot *s = &seen_table[h];
        uint64_t k = atomic_load_explicit(&s->key, memory_order_relaxed);
        if (!k) {
            uint64_t empty = 0;
            if (!mg_threads)
                atomic_store_explicit(&s->key, key, memory_order_relaxed);
            else if (!atomic_compare_exchange_strong(&s->key, &empty, key) && empty != key)
                continue;
            k = key;
        }
        if (k == key) {
            atomic_store_explicit(&s->alg, alg, memory_order_relaxed);
            return;
        }
    }
    mg_count(coll, MG_N_OTHER);
}

static int row_cmp(const void *a, const void *b) {
    const mg_seen_row *x = a, *y = b;
    if (x->coll != y->coll) return x->coll - y->coll;
    return x->msize < y->msize ? -1 : x->msize > y->msize;
}

size_t mg_seen_rows(mg_seen_row *rows) {
    size_t n = 0;
    for (uint32_t i = 0; i < MG_SEEN_SLOTS; i++) {
        uint64_t k = atomic_load(&seen_table[i].key);
        if (!k) continue;
        k -= 1;
        rows[n++] =
            (mg_seen_row){(int)(k & 31), atomic_load(&seen_table[i].alg), (int64_t)(k >> 5)};
    }
    qsort(rows, n, sizeof rows[0], row_cmp);
    return n;
}
