/* The algorithm registry: one row per (collective, algorithm) with its guideline, scratch
 * need, argument predicate and implementation. Tests, the benchmark and the interception
 * layer reach algorithms only through this table. */
#ifndef MG_REGISTRY_H
#define MG_REGISTRY_H

#include "mpiguide.h"
#include <stddef.h>
#include <stdint.h>

#define MG_EXPORT __attribute__((visibility("default")))

/* Collective flags (collectives.def). */
#define MG_CF_INTERCEPT 1u
#define MG_CF_ROOTED    2u
#define MG_CF_REDUCTION 4u
#define MG_CF_V         8u

typedef mpiguide_args mg_args;

/* Values of a call that are identical on every rank of a correct program (INTERFACES.md
 * section 1); needs and predicates may use only these. */
typedef struct mg_shape {
    int p, rank, inter;
    int64_t msize; /* bytes per section 1; -1 for v-collectives */
    int64_t count; /* elements behind msize (per rank block / vector length) */
    size_t tsize;  /* signature bytes of one element of that count's datatype */
    /* Reductions only (the datatype is the same on all ranks, so is its layout): */
    MPI_Aint extent, true_lb, true_extent;
    int commute;       /* op is commutative */
    int predefined_op; /* op is one of MPI's own */
} mg_shape;

typedef struct mg_need {
    size_t msg;  /* bytes from the message pool */
    size_t ints; /* bytes from the int pool */
} mg_need;

/* Scratch handed to an algorithm: at least the bytes its need asked for. */
typedef struct mg_scratch {
    void *msg;
    int *ints;
} mg_scratch;

typedef void (*mg_need_fn)(const mg_args *a, const mg_shape *s, mg_need *need);
typedef unsigned (*mg_supports_fn)(const mg_args *a, const mg_shape *s); /* 0 or a decline bit */
typedef int (*mg_run_fn)(const mg_args *a, const mg_shape *s, const mg_scratch *scratch);

/* Algorithm flags. */
#define MG_AF_DEFAULT   1u /* the library's own collective */
#define MG_AF_REDUCTION 2u /* applies the user's op (tuned mode: predefined ops only) */
#define MG_AF_TESTONLY  4u /* registered only in test builds */

typedef struct mg_alg {
    int coll;
    const char *name;
    const char *guideline;
    mg_need_fn need;
    mg_supports_fn supports;
    mg_run_fn run;
    unsigned declines; /* documented decline reasons (mpiguide_decline bits) */
    unsigned flags;
} mg_alg;

typedef struct mg_coll {
    const char *name;  /* MPI_Allreduce */
    const char *sname; /* allreduce */
    unsigned flags;
} mg_coll;

extern const mg_coll mg_colls[MPIGUIDE_COLL_COUNT];
extern const mg_alg mg_algs[];
extern const int mg_nalgs;

const mg_alg *mg_alg_get(int alg);
/* Fills the shared values of a call (a few PMPI queries, no allocation). */
int mg_shape_of(int coll, const mg_args *a, mg_shape *s);
/* Message size of a call per INTERFACES.md section 1 (bytes; -1 for v-collectives). */
int64_t mg_msize(int coll, const mg_args *a);

/* Which (count, datatype) define the message size of a call on this rank (INTERFACES.md
 * section 1): the receive side, the send side on non-roots of Gather and at the root of
 * Scatter, the sum of recvcounts for Reduce_scatter. One rule for selection and shapes. */
static inline void mg_call_source(int coll, const mg_args *a, int rank, int p, int64_t *count,
                                  MPI_Datatype *t) {
    *count = a->recvcount;
    *t = a->recvtype;
    switch (coll) {
    case MPIGUIDE_COLL_GATHER:
        if (rank != a->root) *count = a->sendcount, *t = a->sendtype;
        break;
    case MPIGUIDE_COLL_SCATTER:
        if (rank == a->root) *count = a->sendcount, *t = a->sendtype;
        break;
    case MPIGUIDE_COLL_REDUCE_SCATTER:
        *count = 0;
        for (int i = 0; i < p; i++) *count += a->recvcounts[i];
        break;
    default:
        break;
    }
}

/* Runs `alg` or, when it declines or does not fit, the default (same decision everywhere). */
int mg_dispatch(int alg, const mg_args *a, int *outcome, unsigned *declined);
int mg_run_default(int coll, const mg_args *a);
/* The decision of mg_dispatch without running anything: MPIGUIDE_RAN_MOCKUP, RAN_DEFAULT or a
 * FALLBACK_* outcome, or -1 with *err when the call's shape could not be computed. Fills *s for
 * mg_dispatch_run. */
int mg_dispatch_plan(const mg_alg *A, const mg_args *a, mg_shape *s, unsigned *declined, int *err);
int mg_dispatch_run(const mg_alg *A, const mg_args *a, const mg_shape *s);

/* Argument fill used by the generated wrappers and typed entry points. */
static inline mg_args mg_fill(const void *sendbuf, void *recvbuf, int sendcount, int recvcount,
                              const int *sendcounts, const int *sdispls, const int *recvcounts,
                              const int *rdispls, MPI_Datatype sendtype, MPI_Datatype recvtype,
                              MPI_Op op, int root, MPI_Comm comm) {
    mg_args a = {sendbuf, recvbuf,  sendcount, recvcount, sendcounts, sdispls, recvcounts,
                 rdispls, sendtype, recvtype,  op,        root,       comm};
    return a;
}

#endif
