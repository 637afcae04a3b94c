/* The correctness matrix (tests/mpi/matrix_*.c): dimension tables and the pairwise case list,
 * the test datatypes and ops, buffers with sentinel holes and guards, and the arguments of one
 * case on one rank. Every algorithm of the registry is compared with the library's own
 * collective on identical inputs, byte for byte. */
#ifndef MG_MATRIX_H
#define MG_MATRIX_H

#include "mpiguide.h"
#include <stddef.h>
#include <stdint.h>

/* ---- Dimensions and cases (matrix_cases.c) ---- */

enum mx_dim {
    MX_INPLACE,
    MX_ROOT,
    MX_COMM,
    MX_COUNT,
    MX_DTYPE,
    MX_TPAIR,
    MX_OP,
    MX_NONSIG,
    MX_PLACE,
    MX_NDIMS
};
enum { MX_INPLACE_NO, MX_INPLACE_YES };
enum { MX_ROOT_FIRST, MX_ROOT_LAST, MX_ROOT_MIDDLE };
enum { MX_COMM_WORLD, MX_COMM_DUP, MX_COMM_PARITY, MX_COMM_REVERSED, MX_NCOMMS };
enum { MX_COUNT_ZERO, MX_COUNT_ONE, MX_COUNT_ODD, MX_COUNT_MULTIPLE, MX_COUNT_LARGE };
enum {
    MX_DT_INT,
    MX_DT_DOUBLE,
    MX_DT_CONTIG,
    MX_DT_VECTOR,
    MX_DT_STRUCT,
    MX_DT_RESIZED,
    MX_NDTYPES
};
/* Send and receive side of a block: the same type, or contiguous(2, T) x c on one side and
 * T x 2c on the other (the signature matches); "mixed" alternates by rank. */
enum { MX_TP_SAME, MX_TP_SENDWIDE, MX_TP_RECVWIDE, MX_TP_MIXED };
enum { MX_OP_SUM, MX_OP_MAX, MX_OP_USER_COMM, MX_OP_USER_NONCOMM, MX_NOPS };
/* Arguments significant only at the root: a sentinel buffer (must stay untouched) or NULL. */
enum { MX_NONSIG_BUFFER, MX_NONSIG_NULL };
/* Where the send and receive buffers lie: separate allocations, one allocation with the receive
 * buffer right after the send buffer (or the other way round, as in `double t[2]; ...
 * Allreduce(&t[1], &t[0], 1, ...)`), so a zero-length block at the boundary has the address
 * of the other buffer, or separate allocations at odd addresses. */
enum { MX_PLACE_APART, MX_PLACE_SEND_RECV, MX_PLACE_RECV_SEND, MX_PLACE_MISALIGNED, MX_NPLACES };

#define MX_MAXCASES 160

typedef struct mx_case {
    signed char v[MX_NDIMS];
} mx_case;

const char *mx_dim_name(int d);
const char *mx_value_name(int d, int v);
int mx_nvalues(int d);
/* 1 when dimension d has a meaning for the collective; otherwise only value 0 is used. */
int mx_dim_applies(int coll, int d);
/* The constraints: which values and which pairs of values form valid MPI calls. */
int mx_value_allowed(int coll, int d, int v);
int mx_pair_allowed(int coll, int d1, int v1, int d2, int v2);
/* The deterministic pairwise case list of a collective (identical on every rank); returns the
 * number of cases, or -1 when a valid pair could not be covered. */
int mx_cases(int coll, mx_case *out, int max);
/* One line naming every applicable dimension's value. */
void mx_describe(int coll, const mx_case *c, char *buf, size_t len);
/* The element count of a count value for communicator size p. */
int mx_count_of(int v, int p);
/* Root rank of a root value for communicator size p. */
int mx_root_of(int v, int p);

/* ---- Datatypes and ops (matrix_types.c) ---- */

typedef struct mx_field {
    int off; /* byte offset from the element's origin */
    int dbl; /* 1: double, 0: int */
} mx_field;

typedef struct mx_type {
    const char *name;
    MPI_Datatype t;    /* the element T */
    MPI_Datatype wide; /* contiguous(2, T) */
    MPI_Aint lb, extent, true_lb, true_extent;
    int nfields;
    mx_field f[3];
} mx_type;

void mx_types_create(void);
void mx_types_free(void);
const mx_type *mx_type_of(int dtype);
MPI_Op mx_op_of(int op);
/* Calls of the user ops with a datatype the test never passed (a mock-up must hand the user's
 * op the user's datatype); reset per run. */
long mx_foreign_op_calls(void);
void mx_reset_op_calls(void);

/* ---- Buffers (matrix_buffers.c) ---- */

enum { MX_SEND, MX_RECV, MX_NBUFS };
struct mx_setup;

/* Value ranges: any bit pattern (data movement), small signed integers (sums, max, the
 * commutative user op), or packed affine maps (the non-commutative user op). */
enum { MX_VALUES_ANY, MX_VALUES_SMALL, MX_VALUES_AFFINE };

typedef struct mx_buf {
    unsigned char *block; /* the allocation this buffer owns, or NULL (a view of another's) */
    unsigned char *mem;   /* the bytes compared: guard, n element slots, guard (a buffer that
                           * shares an allocation has no guard on the side of its neighbour) */
    size_t bytes;
    char *ptr; /* the address passed to MPI (origin of element 0) */
    const mx_type *T;
    int64_t n;       /* elements of T */
    int64_t defined; /* data fields of elements >= defined are not compared */
} mx_buf;

int mx_buf_alloc(mx_buf *b, const mx_type *T, int64_t n, int64_t defined);
/* Sentinel bytes everywhere, then values in every data field. */
void mx_buf_fill(mx_buf *b, uint64_t seed, int values);
/* The buffers of one copy of a case, placed as S->place says (placement applies only when the
 * rank has both buffers); 0 or -1. */
int mx_bufs_alloc(mx_buf b[MX_NBUFS], const struct mx_setup *S);
/* dst gets the placement and the contents of src. */
int mx_bufs_clone(mx_buf dst[MX_NBUFS], const mx_buf src[MX_NBUFS], const struct mx_setup *S);
/* 0 when got equals ref byte for byte (guards and holes included); otherwise 1 with a
 * description of the first difference in msg. */
int mx_buf_diff(const mx_buf *ref, const mx_buf *got, const char *name, char *msg, size_t len);
void mx_buf_free(mx_buf *b);

/* ---- Arguments of one case on one rank (matrix_args.c) ---- */

typedef struct mx_setup {
    int coll, p, rank, root, count, place;
    int inplace; /* the case passes MPI_IN_PLACE (on the ranks its collective allows) */
    int tpair;   /* MX_TP_*: the sides' datatypes */
    const mx_type *T;
    int values;
    mpiguide_args a;             /* everything but the buffers */
    int has[MX_NBUFS];           /* a buffer exists; otherwise the pointer is fixed[] */
    const void *fixed[MX_NBUFS]; /* MPI_IN_PLACE or NULL */
    int64_t n[MX_NBUFS], defined[MX_NBUFS];
    int *counts[2], *displs[2]; /* send and receive side arrays of the v-collectives */
} mx_setup;

/* Fills S for this rank; 0, or -1 for a collective the matrix does not know. */
int mx_setup_case(int coll, const mx_case *c, MPI_Comm comm, mx_setup *S);
void mx_setup_free(mx_setup *S);
/* The arguments with the buffers of one copy. */
void mx_bind(const mx_setup *S, mx_buf bufs[MX_NBUFS], mpiguide_args *a);

/* ---- Expected results of reductions (matrix_oracle.c) ---- */

/* Collective over the case's communicator: exp[] becomes copies of init[] (the buffers before
 * any call) with this rank's share of the rank-order reduction written into the receive
 * buffer. 0, or -1 on failure. */
int mx_oracle(const mx_setup *S, const mx_buf init[MX_NBUFS], mx_buf exp[MX_NBUFS]);
/* Why the library's own collective cannot run for this case (a known defect of this MPI that
 * crashes it: the case is skipped), or NULL. The same on every rank of the communicator. */
const char *mx_reference_defect(const mx_setup *S);

#endif
