/* Helpers shared by the reduction mock-ups (allreduce.c, reduce.c, reduce_scatter_block.c,
 * reduce_scatter.c, scan.c): where a call's input lives, and whether typed scratch of a given
 * number of elements of the reduction datatype can be laid out safely. */
#ifndef MG_REDUTIL_H
#define MG_REDUTIL_H

#include "algutil.h"
#include "chunks.h"
#include "runtime/mpi_defects.h"

/* The buffer a reduction reads on this rank: recvbuf when the rank passed MPI_IN_PLACE. */
static inline const void *mg_red_input(const mg_args *a) {
    return a->sendbuf == MPI_IN_PLACE ? a->recvbuf : a->sendbuf;
}

/* Decline reason (0: fine) for typed scratch of `elems` elements when the user's own receive
 * buffer on every rank holds at least `user` elements of the same datatype. Uses shared values
 * only (the datatype is the same on all ranks of a reduction).
 * - more than INT_MAX elements cannot be passed to MPI: overflow;
 * - several elements of a type with extent <= 0 do not lie after one another: datatype;
 * - when the extent is smaller than the true extent, consecutive elements may interleave or
 *   overlap: the user's buffer is valid for its own count, but a longer scratch vector might
 *   not be a valid receive buffer, so more elements than the user has are declined. */
static inline unsigned mg_red_layout(const mg_shape *s, int64_t elems, int64_t user) {
    if (!MG_FITS_INT(elems)) return MPIGUIDE_DECLINE_OVERFLOW;
    if (elems > 1 && s->extent <= 0) return MPIGUIDE_DECLINE_DATATYPE;
    if (elems > user && elems > 1 && s->true_extent > s->extent) return MPIGUIDE_DECLINE_DATATYPE;
    return 0;
}

/* mg_inner_defect (algutil.h) for an inner Reduce_scatter with the chunked counts of chunks.h
 * (equal only when the split leaves no remainder). */
static inline unsigned mg_red_inner_chunked(const mg_shape *s, int inplace) {
    mg_facts f;
    mg_facts_inner(s, MPIGUIDE_COLL_REDUCE_SCATTER, s->count, inplace, 0, &f);
    mg_facts_set(&f, MG_FACT_REGULAR, mg_chunk_regular(s->count, s->p, mg_chunk_elems(s->tsize)));
    mg_facts_set(&f, MG_FACT_ZERO_COUNTS, mg_chunk_zeros(s->count, s->p, mg_chunk_elems(s->tsize)));
    return mg_defect_hit(&f) ? MPIGUIDE_DECLINE_DEFECT : 0;
}

/* Zeroes the padding elements [n, padded) of a typed scratch vector whose first byte is at
 * first (as laid out by mg_span), including the gaps between them. */
static inline void mg_red_zero_tail(void *first, const mg_shape *s, int64_t n, int64_t padded) {
    if (padded <= n) return;
    size_t from = (size_t)(n * s->extent);
    memset((char *)first + from, 0, mg_span(s, padded) - from);
}

/* Scratch of the padded Reduce_scatter_block mock-ups (GL6, GL15): a block of (n + c) / p
 * elements, and the padded vector of n + c elements when padding is needed (c > 0). */
static inline void mg_red_need_padded(const mg_shape *s, mg_need *need) {
    int64_t padded = mg_padded(s->count, s->p);
    need->ints = 0;
    need->msg = mg_align(mg_span(s, padded / s->p));
    if (padded != s->count) need->msg += mg_span(s, padded);
}

#endif
