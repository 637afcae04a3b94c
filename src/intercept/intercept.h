/* The interception layer's hot path: per-collective switch, communicator and datatype caches,
 * call counters. A wrapper that finds its collective switched off costs one load and one
 * branch; otherwise mg_intercept decides with cached values only (no allocation, file access,
 * string comparison or environment lookup: DESIGN invariant 4). */
#ifndef MG_INTERCEPT_H
#define MG_INTERCEPT_H

#include "core/registry.h"
#include "core/settings.h"
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

/* The slow half of a wrapper: kept out of line and out of interprocedural optimisation, so the
 * wrapper's fast half is a compare and two tail jumps that leave the argument registers
 * untouched. That also keeps pass-through exact when this library runs under the other MPI,
 * whose handles may be wider than ours. */
#if defined(__clang__)
#define MG_SLOW __attribute__((noinline))
#else
#define MG_SLOW __attribute__((noipa))
#endif

/* 1 when calls of the collective go through mg_intercept (selection, counting); 0: straight to
 * PMPI. All 0 before MPI_Init, after MPI_Finalize and with MPIGUIDE_OFF=1. */
extern unsigned char mg_on[MPIGUIDE_COLL_COUNT];
/* MPI_THREAD_MULTIPLE: counters use atomic increments, the communicator cache is bypassed. */
extern int mg_threads;

/* Handles the call when a mock-up runs: returns 1 with its result in *rc. Returns 0 when the
 * caller must run the library's own collective (selection said default, or a fallback). */
int mg_intercept(int coll, const mg_args *a, int *rc);

/* Called by the MPI_Init wrappers after PMPI_Init / by MPI_Finalize before PMPI_Finalize. */
void mg_intercept_start(int argc, char **argv);
void mg_intercept_stop(void);

/* ---- what gets counted per collective (report footer, INTERFACES.md section 4) ---- */
enum mg_counter {
    MG_N_TOTAL,
    MG_N_MOCKUP,
    MG_N_FB_MEMORY,  /* the mock-up's scratch need exceeds the pools */
    MG_N_FB_ARGS,    /* its predicate declined the arguments (also intercommunicators) */
    MG_N_FB_THREADS, /* MPI_THREAD_MULTIPLE: mock-ups need the process-wide scratch */
    MG_N_FB_USEROP,  /* tuned reduction mock-up with a user-defined op, tune_user_ops 0 */
    MG_N_FB_POOL,    /* the pools could not be created */
    MG_N_OPTOUT,     /* the communicator has mpiguide_off=true */
    MG_N_LARGE,      /* MPI-4 large-count call whose size does not fit int */
    MG_N_OTHER,      /* message size found no room in the alg-line table */
    MG_N_VERIFIED,   /* MPIGUIDE_VERIFY: compared with the default */
    MG_N_MISMATCH,   /* ... and differed */
    MG_N_COUNT
};

extern _Atomic uint64_t mg_counts[MPIGUIDE_COLL_COUNT][MG_N_COUNT];

static inline void mg_count(int coll, int what) {
    _Atomic uint64_t *c = &mg_counts[coll][what];
    if (mg_threads)
        atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
    else
        atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + 1,
                              memory_order_relaxed);
}

/* Remembers which algorithm ran for (collective, msize) for the `#@pgmpi alg` lines. */
void mg_report_seen(int coll, int64_t msize, int alg);
/* Writes the footer on rank 0 (MPIGUIDE_REPORT). */
void mg_report_write(void);
extern int mg_report_on;

/* ---- communicator cache ---- */
#define MG_COMM_OFF   1u /* info key mpiguide_off=true */
#define MG_COMM_INTER 2u

typedef struct mg_centry {
    uintptr_t key; /* handle bits; 0 = empty */
    int32_t p, rank;
    uint32_t flags;
} mg_centry;

#define MG_CC_SLOTS 64
extern mg_centry mg_ccache[MG_CC_SLOTS];

static inline uintptr_t mg_hbits(const void *handle, size_t size) {
    uintptr_t k = 0;
    memcpy(&k, handle, size < sizeof k ? size : sizeof k);
    return k;
}

static inline uint32_t mg_hslot(uintptr_t k, unsigned bits) {
    return (uint32_t)(((uint64_t)k * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

/* Fills the cache entry of a communicator not in the cache; NULL when the communicator is
 * not valid (the library's own collective then reports the error). */
const mg_centry *mg_comm_miss(MPI_Comm comm, mg_centry *e);

static inline const mg_centry *mg_comm_info(MPI_Comm comm) {
    uintptr_t k = mg_hbits(&comm, sizeof comm);
    mg_centry *e = &mg_ccache[mg_hslot(k, 6)];
    if (__builtin_expect(e->key == k && k, 1)) return e;
    return mg_comm_miss(comm, e);
}

/* Opt-out via info (MPI_Comm_set_info, MPI_Comm_dup_with_info): off 1/0, or -1 to leave the
 * communicator as it is. */
void mg_comm_set_off(MPI_Comm comm, int off);
/* -1 when info has no mpiguide_off key, else 1 for true/1/yes, 0 otherwise. */
int mg_info_off(MPI_Info info);
int mg_comm_start(void);
void mg_comm_stop(void);

/* ---- datatype sizes: predefined types from a table filled at start ---- */
#define MG_TC_BITS 7
typedef struct mg_tentry {
    uintptr_t key;
    int size;
} mg_tentry;
extern mg_tentry mg_tcache[1u << MG_TC_BITS];

static inline int mg_type_size(MPI_Datatype t, int *size) {
    uintptr_t k = mg_hbits(&t, sizeof t);
    for (uint32_t h = mg_hslot(k, MG_TC_BITS);; h = (h + 1) & ((1u << MG_TC_BITS) - 1)) {
        if (mg_tcache[h].key == k && k) {
            *size = mg_tcache[h].size;
            return MPI_SUCCESS;
        }
        if (!mg_tcache[h].key) break;
    }
    return PMPI_Type_size(t, size);
}
void mg_types_start(void);

/* ---- MPIGUIDE_VERIFY ---- */
/* Runs the default and then the mock-up on the same input, compares the outputs, counts; the
 * caller's buffers end up with the mock-up's result. */
int mg_verify_run(const mg_alg *A, const mg_args *a, const mg_shape *s, int64_t msize);

#endif
