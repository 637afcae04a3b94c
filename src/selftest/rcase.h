/* One case of `mpiguide selftest --random`, without MPI: drawing it from (seed, collective, case
 * number, communicator size), the arguments and buffers of every rank, the values, and the
 * expected result of every rank computed sequentially from every rank's inputs (which are
 * regenerated from the seed, so no communication is involved). A seed and a case number name
 * a case exactly. */
#ifndef MG_SELFTEST_RCASE_H
#define MG_SELFTEST_RCASE_H

#include "rtypes.h"
#include <stddef.h>
#include <stdint.h>

/* The communicator a case runs on, made from MPI_COMM_WORLD: itself, a duplicate, the ranks in
 * reversed order, the even and the odd ranks (two groups), the first and the second half. */
enum { MG_RC_WORLD, MG_RC_DUP, MG_RC_REVERSED, MG_RC_PARITY, MG_RC_HALVES, MG_RC_COUNT };
/* Where the send and receive buffers lie (as the correctness matrix): separate allocations; one
 * allocation with the receive buffer right after the send buffer, or before it (a zero-length
 * block at the boundary then has the other buffer's address); separate at odd addresses. */
enum { MG_RP_APART, MG_RP_SEND_RECV, MG_RP_RECV_SEND, MG_RP_MISALIGNED, MG_RP_COUNT };
/* The datatypes of the two sides of a data-movement block: T on both, contiguous(2, T) on the
 * send or the receive side (same signature), or alternating by rank. */
enum { MG_RS_SAME, MG_RS_SENDWIDE, MG_RS_RECVWIDE, MG_RS_MIXED, MG_RS_COUNT };

extern const char *const mg_rcomm_names[MG_RC_COUNT];

typedef struct mg_rcase {
    uint64_t seed;
    int coll;
    int64_t index;
    int comm; /* MG_RC_*: drawn from (seed, coll, index) alone, before p is known */
    int p;    /* size of the communicator the rest was drawn for */
    int type; /* index into mg_rtypes */
    int op;   /* reductions: MG_ROP_*; -1 otherwise */
    int root, inplace, nonsig_null, place, sides;
    int64_t count;   /* T elements: one rank's block; a reduction's count (per block for
                      * Reduce_scatter_block, the whole vector for Reduce_scatter) */
    int *counts;     /* Gatherv/Scatterv/Allgatherv blocks, Reduce_scatter pieces (T elements;
                      * p of them); Alltoallv: the pair (i, j) moves counts[(i + j) % p] */
    int *displs;     /* Gatherv/Scatterv/Allgatherv block displacements (T elements) */
    int *pairs;      /* Alltoallv: rank r's counts (p at r p) and displacements (p at p p + r p),
                      * the same for both sides (the counts are symmetric) */
    int count_class; /* how the count was drawn, for the description */
} mg_rcase;

/* The communicator kind of case `index` (the first draw). */
int mg_rcase_comm(uint64_t seed, int coll, int64_t index);
/* Draws the case for a communicator of p ranks. Only collectives this module knows (those of
 * mg_rcase_supported) are drawn. 0, or -1 when out of memory. */
int mg_rcase_draw(uint64_t seed, int coll, int64_t index, int p, mg_rcase *c);
void mg_rcase_free(mg_rcase *c);
int mg_rcase_supported(int coll);
/* One line naming everything that was drawn. */
void mg_rcase_describe(const mg_rcase *c, char *buf, size_t len);
/* The same case with `count` T elements (shrinking a failing case; v-collectives scale their
 * blocks). 0 or -1. */
int mg_rcase_resize(const mg_rcase *c, int64_t count, mg_rcase *out);

/* ---- one rank's arguments and buffers ---- */
enum { MG_RB_SEND, MG_RB_RECV, MG_RB_NBUFS };
/* What a missing buffer is passed as. */
enum { MG_RF_NONE, MG_RF_NULL, MG_RF_INPLACE, MG_RF_SAME /* Bcast: the one buffer */ };

typedef struct mg_rargs {
    int has[MG_RB_NBUFS];         /* a buffer of n[b] T elements exists */
    int fixed[MG_RB_NBUFS];       /* otherwise it is passed as MG_RF_* */
    int64_t n[MG_RB_NBUFS];       /* T elements */
    int64_t defined[MG_RB_NBUFS]; /* elements whose data is defined after the call */
    int64_t sendcount, recvcount; /* in units of the side's datatype */
    int sendwide, recvwide;       /* the side's datatype is contiguous(2, T) */
    int null_type[MG_RB_NBUFS];   /* the side's datatype is MPI_DATATYPE_NULL (insignificant) */
    int root;
    int *sendcounts, *sdispls, *recvcounts, *rdispls; /* into the case's arrays, or NULL */
} mg_rargs;

void mg_rcase_args(const mg_rcase *c, int rank, mg_rargs *a);

/* A buffer of n T elements in bytes: guard, the elements' slots, guard. The element k's origin
 * is at mem + origin + k * extent. */
typedef struct mg_rmem {
    unsigned char *mem;  /* the buffer's own bytes (inside its allocation) */
    size_t bytes;        /* compared: both guards and the slots */
    size_t origin;       /* offset of element 0's origin */
    unsigned char *care; /* per byte: 1 compared, 0 undefined after the call; NULL: all */
} mg_rmem;

/* Bytes of guard on either side of a buffer. */
#define MG_RGUARD 64
/* Bytes the slots of n elements of t take (at least one slot, so that even an empty buffer has
 * an address of its own), and the offset of element 0's origin in them. */
size_t mg_rslots(const mg_rtype *t, int64_t n, size_t *origin);

/* Where a buffer lies: in allocation `block` (0 or 1) from byte `at`, `bytes` long (guards
 * included), element 0's origin at `origin` from its start. */
typedef struct mg_rgeom {
    int block;
    size_t at, bytes, origin;
} mg_rgeom;
/* The placement of this rank's buffers: the size of each allocation (0: not needed) and each
 * existing buffer's place. Adjacent placements put both in allocation 0 with no guard between
 * them; misaligned ones start one byte into their allocation. */
void mg_rgeometry(const mg_rcase *c, const mg_rargs *a, mg_rgeom g[MG_RB_NBUFS], size_t size[2]);

/* The bytes a buffer of this rank holds before the call: a position-dependent sentinel
 * everywhere (holes, guards, padding), then values in the data fields of its elements. */
void mg_rfill(const mg_rcase *c, int rank, int which, const mg_rargs *a, mg_rmem *m);
/* The bytes it must hold after the call: the initial bytes with the result in the data fields
 * of its defined elements; care marks the bytes compared. m->mem holds the initial bytes on
 * entry. 0, or -1 when out of memory. */
int mg_rexpect(const mg_rcase *c, int rank, int which, const mg_rargs *a, mg_rmem *m);
/* First byte where got differs from exp on a cared byte: -1 when none; otherwise its offset
 * and a description (element, field, values) in msg. */
int64_t mg_rdiff(const mg_rcase *c, const mg_rargs *a, int which, const mg_rmem *exp,
                 const unsigned char *got, char *msg, size_t len);

#endif
