/* A collective call as the MPI runtime of libmpiguide sees it: the arguments (mpiguide_args), the
 * values every rank of the communicator shares (mg_shape: docs/dev/interfaces.md section 1,
 * design.md invariant 1), the scratch an algorithm asks for and gets, the signatures of an
 * algorithm's run, need and supports functions, and the library's own collective on the same
 * arguments. Algorithms, library algorithms, the dispatcher and the interception build on it. */
#ifndef MG_CALL_H
#define MG_CALL_H

#include "algid/algid.h"
#include "mpiguide.h"
#include "util/visibility.h"
#include <stddef.h>
#include <stdint.h>

typedef mpiguide_args mg_args;

/* Values of a call that are identical on every rank of a correct program (docs/dev/interfaces.md
 * section 1); needs and predicates may use only these. */
typedef struct mg_shape {
    int p, rank, inter;
    int64_t msize;     /* bytes per section 1; -1 for Gatherv, Scatterv, Alltoallv */
    int64_t count;     /* elements behind msize (per rank block / vector length) */
    size_t tsize;      /* signature bytes of one element of that count's datatype */
    MPI_Datatype type; /* that datatype, this rank's (its signature is every rank's) */
    int64_t block;     /* Allgatherv: the largest block in bytes (recvcounts are everywhere) */
    /* Reductions only (the datatype is the same on all ranks, so is its layout): */
    MPI_Aint extent, true_lb, true_extent;
    int commute;            /* op is commutative */
    int predefined_op;      /* op is one of MPI's own */
    int op_code, type_code; /* the op and datatype by name for the defect table (0: user's) */
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

/* Fills the shared values of a call (a few PMPI queries, no allocation). */
int mg_shape_of(int coll, const mg_args *a, mg_shape *s);
/* Message size of a call per docs/dev/interfaces.md section 1 (bytes; 0 for Barrier, -1 for the
 * other collectives without a shared size: Gatherv, Scatterv, Alltoallv). */
int64_t mg_msize(int coll, const mg_args *a);

/* The (count, datatype) that define the message size of a call on this rank: the catalog's
 * rule (mg_size_source_of), applied to the arguments. */
static inline void mg_call_source(int coll, const mg_args *a, int rank, int p, int64_t *count,
                                  MPI_Datatype *t) {
    *count = a->recvcount;
    *t = a->recvtype;
    switch (mg_size_source_of(coll, rank == a->root)) {
    case MG_SIZE_SEND:
        *count = a->sendcount, *t = a->sendtype;
        break;
    case MG_SIZE_RECVCOUNTS:
        *count = 0;
        for (int i = 0; i < p; i++) *count += a->recvcounts[i];
        break;
    default:
        break;
    }
}

/* The library's own collective on the call (default_call.c); in test builds with the slow-default
 * hook of MPIGUIDE_TEST_SLOW_DEFAULT. */
int mg_run_default(int coll, const mg_args *a);
#ifdef MPIGUIDE_TEST_ALGORITHMS
/* Test builds: that hook alone; the same where the wrappers run the default themselves, with
 * MPIGUIDE_TEST_SLOW_DEFAULT_ALL=1 (intercept.h, wrappers.c); whether coll slows so
 * everywhere. */
void mg_test_slow_default(int coll);
void mg_test_slow_route(int coll);
int mg_test_slowed(int coll);
#define MG_TEST_DEFAULT_ROUTE(coll) mg_test_slow_route(coll)
#define MG_TEST_SLOWED(coll)        mg_test_slowed(coll)
#else
#define MG_TEST_SLOWED(coll)        0
#define MG_TEST_DEFAULT_ROUTE(coll) ((void)0)
#endif
/* The library's own collective through PMPI, without the test builds' slow-default hook (library
 * algorithms call it on their shadow communicator). */
int mg_run_pmpi(int coll, const mg_args *a);
/* Argument fill used by the generated wrappers and typed entry points. */
static inline mg_args mg_fill(const void *sendbuf, void *recvbuf, int sendcount, int recvcount,
                              const int *sendcounts, const int *sdispls, const int *recvcounts,
                              const int *rdispls, MPI_Datatype sendtype, MPI_Datatype recvtype,
                              MPI_Op op, int root, MPI_Comm comm, MPI_Request *request) {
    mg_args a = {sendbuf, recvbuf,  sendcount, recvcount, sendcounts, sdispls, recvcounts,
                 rdispls, sendtype, recvtype,  op,        root,       comm,    request};
    return a;
}

#endif
