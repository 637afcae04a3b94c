/* Helpers shared by the mock-ups: typed local copies, packing user data into scratch and
 * back, and the size arithmetic of typed scratch buffers. All MPI calls are PMPI_. */
#ifndef MG_ALGUTIL_H
#define MG_ALGUTIL_H

#include "runtime/mpi_defects.h"
#include "runtime/call.h"
#include "runtime/scratch.h"
#include <stdint.h>
#include <string.h>

/* A mock-up may not fail where the library's own collective works (docs/dev/design.md invariant
 * 2), so it never runs an inner collective into a known defect of the running MPI (the table
 * src/defects/known.txt, runtime/mpi_defects.c): DEFECT when the inner call `coll` with `count`
 * elements of the call's datatype (and op, for a reduction), MPI_IN_PLACE or not, at root
 * `root`, meets or may meet an entry's condition; 0 otherwise. Shared values only. */
static inline unsigned mg_inner_defect(const mg_shape *s, int coll, int64_t count, int inplace,
                                       int root) {
    if (!mg_defects_in(coll)) return 0; /* the common case: no facts to fill */
    mg_facts f;
    mg_facts_inner(s, coll, count, inplace, root, &f);
    return mg_defect_hit(&f) ? MPIGUIDE_DECLINE_DEFECT : 0;
}

/* Scratch in "packed" form holds the type signature's bytes back to back (what PMPI_Pack
 * produces on a homogeneous system); collectives on packed scratch use MPI_BYTE. */

/* Copies sc elements of st at s to dc elements of dt at d (matching signatures). */
int mg_tcopy(const void *s, int sc, MPI_Datatype st, void *d, int dc, MPI_Datatype dt);
/* Packs count elements of t at buf into out (count * size(t) bytes). */
int mg_pack(const void *buf, int count, MPI_Datatype t, void *out);
/* Unpacks count elements of t from packed bytes at in into buf. */
int mg_unpack(const void *in, void *buf, int count, MPI_Datatype t);

/* Bytes a typed buffer of n elements of the reduction datatype occupies, from its first to
 * its last byte (true extent rule). */
static inline size_t mg_span(const mg_shape *s, int64_t n) {
    return n <= 0 ? 0 : (size_t)(s->true_extent + (n - 1) * s->extent);
}

/* Pointer to pass to MPI for a typed buffer whose first byte is at scratch. */
static inline void *mg_typed(void *scratch, const mg_shape *s) {
    return (char *)scratch - s->true_lb;
}

/* Address of element i of a typed buffer. */
static inline void *mg_elem(const void *buf, int64_t i, MPI_Aint extent) {
    return (char *)buf + i * extent;
}

/* Receive address of this rank's block of `count` elements at element `displ` of the user's
 * recvbuf. An empty block gets recvbuf itself: MPICH rejects a receive pointer equal to the
 * send pointer whatever the count, and an empty block at the end of recvbuf has the address of
 * a sendbuf that follows it in memory (`double t[2]; Allreduce(&t[1], &t[0], 1, ...)`);
 * recvbuf itself never equals a non-aliased sendbuf of a call that moves data. */
static inline void *mg_recv_block(void *recvbuf, int64_t displ, int count, MPI_Aint extent) {
    return count ? mg_elem(recvbuf, displ, extent) : recvbuf;
}

/* Rounds up to a multiple of 64 bytes so scratch regions stay aligned. */
static inline size_t mg_align(size_t bytes) {
    return (bytes + 63) & ~(size_t)63;
}

/* Common predicates and needs. */
unsigned mg_supports_any(const mg_args *a, const mg_shape *s);
/* Declines when p * count elements or p * msize bytes do not fit an int. */
unsigned mg_supports_p_times_count(const mg_args *a, const mg_shape *s);
void mg_need_none(const mg_args *a, const mg_shape *s, mg_need *need);
/* Needs 2p ints (counts and displacements). */
void mg_need_2p_ints(const mg_args *a, const mg_shape *s, mg_need *need);

/* The C kind of a predefined integer datatype (MPI_INT, MPI_UINT8_T, ...): 1 with its size in
 * bytes and whether it is signed; 0 for any other datatype. */
int mg_integer_kind(MPI_Datatype t, int *size, int *sgn);

/* Extent of a datatype (lower bound ignored). */
static inline MPI_Aint mg_extent(MPI_Datatype t) {
    MPI_Aint lb = 0, ext = 0;
    PMPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

#define MG_FITS_INT(x) ((int64_t)(x) <= (int64_t)INT32_MAX)

/* Jump to the function's single exit on error (kernel style). */
#define MG_TRY(call)                                                                               \
    do {                                                                                           \
        rc = (call);                                                                               \
        if (rc != MPI_SUCCESS) goto out;                                                           \
    } while (0)

#endif
