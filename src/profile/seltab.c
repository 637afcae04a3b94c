/* Building and validating the flat selection table (layout above block_header). */
#include "seltab.h"
#include "catalog/catalog.h"
#include <stdlib.h>
#include <string.h>

/* Block layout, every part 8-byte aligned:
 *   header | mg_selprof[nprof] | int32 slot[nslots] | int64 lo[N] | int64 hi[N] | int32 alg[N]
 */
typedef struct block_header {
    char magic[8];
    uint32_t nprof, nslots;
    uint64_t nranges;
} block_header;

static const char magic[8] = "MGSEL03";

#define MAX_BLOCK ((size_t)1 << 30)

static size_t pad8(size_t x) {
    return (x + 7) & ~(size_t)7;
}

/* Offsets of the parts for the given counts; total bytes, 0 when too large. */
static size_t layout(uint64_t nprof, uint64_t nslots, uint64_t nr, size_t off[5]) {
    if (nprof > MAX_BLOCK || nslots > MAX_BLOCK || nr > MAX_BLOCK) return 0;
    off[0] = sizeof(block_header);
    off[1] = off[0] + pad8(nprof * sizeof(mg_selprof));
    off[2] = off[1] + pad8(nslots * sizeof(int32_t));
    off[3] = off[2] + nr * sizeof(int64_t);
    off[4] = off[3] + nr * sizeof(int64_t);
    size_t total = off[4] + pad8(nr * sizeof(int32_t));
    return total > MAX_BLOCK ? 0 : total;
}

void mg_seltab_key(const mg_profile *p, int *esize, int *opclass) {
    *opclass = mg_coll_is_reduction(p->coll) ? mg_op_class(p->operation) : 0;
    *esize = mg_coll_sizeless(p->coll) ? 0 : mg_dtype_size(p->datatype);
}

int mg_seltab_build(const mg_profile_set *set, void **block, size_t *bytes) {
    uint64_t nr = 0, nslots = 2;
    for (int i = 0; i < set->n; i++) nr += (uint64_t)set->v[i].nranges;
    while (nslots < 2 * (uint64_t)set->n) nslots *= 2;
    size_t off[5];
    size_t total = layout((uint64_t)set->n, nslots, nr, off);
    char *b = total ? calloc(1, total) : NULL;
    if (!b) return -1;
    block_header *h = (block_header *)b;
    memcpy(h->magic, magic, sizeof magic);
    h->nprof = (uint32_t)set->n;
    h->nslots = (uint32_t)nslots;
    h->nranges = nr;
    mg_selprof *prof = (mg_selprof *)(b + off[0]);
    int32_t *slot = (int32_t *)(b + off[1]);
    int64_t *lo = (int64_t *)(b + off[2]), *hi = (int64_t *)(b + off[3]);
    int32_t *alg = (int32_t *)(b + off[4]);
    for (uint64_t s = 0; s < nslots; s++) slot[s] = -1;
    uint32_t first = 0;
    for (int i = 0; i < set->n; i++) {
        const mg_profile *p = &set->v[i];
        int esize, opclass;
        mg_seltab_key(p, &esize, &opclass);
        prof[i] = (mg_selprof){p->coll, p->p, first, (uint32_t)p->nranges, esize, opclass, -1, 0};
        for (int r = 0; r < p->nranges; r++) {
            lo[first + (uint32_t)r] = p->ranges[r].lo;
            hi[first + (uint32_t)r] = p->ranges[r].hi;
            alg[first + (uint32_t)r] = p->ranges[r].alg;
        }
        first += (uint32_t)p->nranges;
    }
    /* the chains, most specific first (seltab.h): the slot holds each chain's first */
    for (int spec = 2; spec >= 0; spec--) {
        for (int i = 0; i < set->n; i++) {
            if ((prof[i].esize != 0) + (prof[i].opclass != 0) != spec) continue;
            uint32_t hs = mg_seltab_hash(prof[i].coll, prof[i].p) & (uint32_t)(nslots - 1);
            while (slot[hs] >= 0 &&
                   (prof[slot[hs]].coll != prof[i].coll || prof[slot[hs]].p != prof[i].p))
                hs = (hs + 1) & (uint32_t)(nslots - 1);
            if (slot[hs] < 0) {
                slot[hs] = i;
                continue;
            }
            int32_t t = slot[hs];
            while (prof[t].next >= 0) t = prof[t].next;
            prof[t].next = i;
        }
    }
    *block = b;
    *bytes = total;
    return 0;
}

void mg_seltab_match_size(void *block) {
    if (!block) return;
    block_header *h = block;
    mg_selprof *prof = (mg_selprof *)((char *)block + sizeof *h);
    for (uint32_t i = 0; i < h->nprof; i++) prof[i].esize = prof[i].opclass = 0;
}

int mg_seltab_view(const void *block, size_t bytes, mg_selview *v) {
    const block_header *h = block;
    memset(v, 0, sizeof *v);
    if (!block || bytes < sizeof *h || memcmp(h->magic, magic, sizeof magic)) return -1;
    if (h->nslots < 2 || (h->nslots & (h->nslots - 1)) || h->nprof >= h->nslots) return -1;
    size_t off[5];
    if (layout(h->nprof, h->nslots, h->nranges, off) != bytes) return -1;
    const char *b = block;
    v->nprof = h->nprof;
    v->mask = h->nslots - 1;
    v->nranges = h->nranges;
    v->prof = (const mg_selprof *)(b + off[0]);
    v->slot = (const int32_t *)(b + off[1]);
    v->lo = (const int64_t *)(b + off[2]);
    v->hi = (const int64_t *)(b + off[3]);
    v->alg = (const int32_t *)(b + off[4]);
    for (uint32_t i = 0; i < v->nprof; i++) {
        const mg_selprof *p = &v->prof[i];
        if ((uint64_t)p->first + p->n > v->nranges) return -1;
        if (p->esize < 0 || p->opclass < 0 || p->opclass >= MG_OPC_COUNT) return -1;
        if (p->next >= (int32_t)v->nprof || p->next < -1) return -1;
        /* a chain stays within one (coll, p) and ends: at most nprof steps */
        uint32_t steps = 0;
        for (int32_t q = p->next; q >= 0; q = v->prof[q].next)
            if (++steps >= v->nprof || v->prof[q].coll != p->coll || v->prof[q].p != p->p ||
                v->prof[q].next >= (int32_t)v->nprof || v->prof[q].next < -1)
                return -1;
        for (uint32_t r = p->first; r < p->first + p->n; r++)
            if (v->lo[r] > v->hi[r] || (r > p->first && v->lo[r] <= v->hi[r - 1])) return -1;
    }
    for (uint32_t s = 0; s <= v->mask; s++)
        if (v->slot[s] >= (int32_t)v->nprof) return -1;
    return 0;
}
